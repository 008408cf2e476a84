// DRAW's four case studies (§VI-B to §VI-D) as scenarios of the simulated app, each with a healthy counterpart
// that applies the fix the paper names, so a notebook's checks can be seen to pass on one and fail on the other.
// Noise for the accuracy bench: extra interactions and background load on the main thread (scenario-parts.ts).
import type { SimView } from "./app-model";
import type { MainMessage, ScenarioCtx } from "./scenario-parts";
import { backgroundMessages, distractors, MS, runOnMain, S, screenChrome } from "./scenario-parts";

export const DRAW_SCENARIOS = [
  "faceq",
  "faceq-fixed",
  "picsplay",
  "picsplay-fixed",
  "pregnancy-article",
  "pregnancy-article-fixed",
  "pregnancy-timeline",
  "pregnancy-timeline-fixed",
] as const;

const PREGNANCY = {
  package: "com.hp.pregnancy.lite",
  version: "3.3.1",
  activity: "com.hp.pregnancy.lite.LandingScreenActivity",
};
// FaceQ and PicsPlay are apps of their own, named after the classes their scenarios draw
// (com.faceq.editor.AvatarView, com.picsplay.PhotoView): not one app (jb.compare matches views within an app)
const FACEQ = { package: "com.faceq", version: "1.2.0", activity: "com.faceq.editor.EditorActivity" };
const PICSPLAY = { package: "com.picsplay", version: "2.1.0", activity: "com.picsplay.MainActivity" };
export const DRAW_APPS: Partial<Record<string, { package: string; version: string; activity: string }>> = {
  faceq: FACEQ,
  "faceq-fixed": FACEQ,
  picsplay: PICSPLAY,
  "picsplay-fixed": PICSPLAY,
  "pregnancy-article": PREGNANCY,
  "pregnancy-article-fixed": PREGNANCY,
  "pregnancy-timeline": PREGNANCY,
  "pregnancy-timeline-fixed": PREGNANCY,
};

/** Interaction times: the scenario's own, then `extraEvents` more at the same pace (noise). */
function interactionTimes(c: ScenarioCtx, t0: number, own: number[], gap: number): number[] {
  const times = own.map((s) => t0 + s * S);
  const last = own.at(-1) ?? 0;
  for (let i = 1; i <= (c.noise?.extraEvents ?? 0); i++) times.push(t0 + (last + i * gap) * S);
  return times;
}

/** The noise's distractor views (none without noise: the case as the paper tells it). */
const noiseViews = (c: ScenarioCtx) => distractors(c.sim, c.noise?.extraEvents ?? 0);

/** Background load over [from, to) plus the scenario's own main-thread work, scheduled before any frame. */
function mainThread(c: ScenarioCtx, from: number, to: number, own: MainMessage[] = []): void {
  const load = c.noise?.backgroundLoad ?? 0;
  if (load > 0 || own.length) runOnMain(c.sim, [...own, ...backgroundMessages(c.sim.rand, from, to, load)]);
}

/** The case's ground truth: what the paper found, or, for the fixed variant, that the fix is in. */
function found(
  c: ScenarioCtx,
  name: string,
  fixed: boolean,
  paper: string,
  [finding, healthy]: [string, string],
  culprit: Record<string, unknown>,
): void {
  c.cases.push({
    case: fixed ? `${name}-fixed` : name,
    paper,
    finding: fixed ? `healthy: ${healthy}` : finding,
    culprit: { ...culprit, fixed },
  });
}

// §VI-B case 1 (FaceQ): a GridView with a blue background completely covered by its children. Fixed: no
// background (the paper's change), so the GridView's own draw is a container's.
function faceq(c: ScenarioCtx, t0: number, fixed: boolean): number {
  const { sim } = c;
  const { width: w, height: h } = sim.device;
  const top = Math.round(h * 0.55);
  const cell = Math.floor(w / 3);
  const cellH = Math.floor((h - top) / 3);
  const cells = Array.from({ length: 9 }, (_, i) => {
    const l = (i % 3) * cell;
    const t = top + Math.floor(i / 3) * cellH;
    return sim.view("android.widget.RelativeLayout", [l, t, cell, cellH], {
      layout_file: "res/layout/editor_item.xml",
      background: true,
      cost: 0.1,
      children: [
        sim.view("android.widget.ImageView", [l, t, cell, cellH], {
          xml_id: "item_image",
          layout_file: "res/layout/editor_item.xml",
          background: true,
          cost: 0.35,
        }),
      ],
    });
  });
  const grid = sim.view("android.widget.GridView", [0, top, w, h - top], {
    xml_id: "gridview",
    layout_file: "res/layout/activity_editor.xml",
    background: !fixed,
    cost: fixed ? 0.05 : 0.6,
    children: cells,
  });
  const avatar = sim.view("com.faceq.editor.AvatarView", [0, 168, w, top - 168], {
    xml_id: "avatar",
    layout_file: "res/layout/activity_editor.xml",
    cost: 9.5,
  });
  const root = screenChrome(sim, w, h, [avatar, grid, ...noiseViews(c)]);
  const times = interactionTimes(c, t0, [0.2, 1.4, 2.6], 1.2);
  mainThread(c, t0, times.at(-1)! + 1.2 * S);
  for (const [i, at] of times.entries()) {
    sim.input(at, "scroll", "gridview");
    sim.animate(at, at + 0.8 * S, root, { layoutFirst: i === 0 });
  }
  found(
    c,
    "faceq",
    fixed,
    "DRAW §VI-B case 1 (Figure 6)",
    [
      "the GridView's blue background is drawn under nine ImageViews in nine RelativeLayouts that cover it completely",
      "the GridView has no background, its cells paint the area",
    ],
    {
      view_id: grid.id,
      view_class: "android.widget.GridView",
      xml_id: "gridview",
      covered_by: cells.map((v) => v.id),
    },
  );
  return Math.max(t0 + 4 * S, times.at(-1)! + 1.2 * S);
}

// §VI-C case 2 (PicsPlay): five submenus are rendered while only one is visible. Fixed: the four hidden ones
// are GONE (not rendered), the paper's "do not render all submenus when only one is visible".
function picsplay(c: ScenarioCtx, t0: number, fixed: boolean): number {
  const { sim } = c;
  const { width: w, height: h } = sim.device;
  const top = h - 420;
  const submenus = Array.from({ length: 5 }, (_, k) =>
    sim.view("android.widget.LinearLayout", [0, top, w, 420], {
      xml_id: `submenu_${k + 1}`,
      layout_file: `res/layout/main_submenu${k + 1}.xml`,
      background: true,
      cost: 0.15,
      visibility: fixed && k < 4 ? "gone" : "visible",
      children: Array.from({ length: 4 }, (_, i) =>
        sim.view("android.widget.ImageButton", [i * Math.floor(w / 4), top + 40, Math.floor(w / 4), 340], {
          xml_id: `submenu${k + 1}_button${i + 1}`,
          layout_file: `res/layout/main_submenu${k + 1}.xml`,
          background: true,
          cost: 0.3,
        }),
      ),
    }),
  );
  const photo = sim.view("com.picsplay.PhotoView", [0, 168, w, top - 168], {
    xml_id: "photo",
    layout_file: "res/layout/main.xml",
    cost: 8.5,
  });
  const root = screenChrome(sim, w, h, [
    photo,
    sim.view("android.widget.FrameLayout", [0, top, w, 420], {
      xml_id: "submenu_container",
      layout_file: "res/layout/main.xml",
      children: submenus,
    }),
    ...noiseViews(c),
  ]);
  const times = interactionTimes(c, t0, [0.2, 1.3, 2.5], 1.2);
  mainThread(c, t0, times.at(-1)! + 1.2 * S);
  for (const at of times) {
    sim.input(at, "click", "submenu_tab");
    sim.animate(at, at + 0.6 * S, root, { layoutFirst: true });
  }
  // The last submenu is drawn last, over the same rectangle: the first four are drawn but never seen.
  found(
    c,
    "picsplay",
    fixed,
    "DRAW §VI-C case 2 (Figures 7-8)",
    [
      "four of five submenus (main_submenu1-4.xml) are drawn under the visible one",
      "only the visible submenu is rendered",
    ],
    {
      hidden_submenus: submenus.slice(0, 4).map((v) => ({
        view_id: v.id,
        layout_file: v.layout_file,
        views: [v, ...v.children].map((x) => x.id),
      })),
      visible_submenu: submenus[4]!.id,
    },
  );
  return Math.max(t0 + 4 * S, times.at(-1)! + 1.2 * S);
}

const ARTICLE_LAYOUT = "res/layout/article_detail.xml";
const PARAGRAPH_H = 190;

// §VI-C case 3 (Pregnancy+): opening an article inflates it whole ({mMainView = inflater.inflate(...); initDB();
// initUI();}): one TextView per paragraph, most of them below the screen, every one measured, laid out and
// drawn in every frame, after a synchronous database query on the UI thread. Fixed: the paper's "change the
// layout design and the database accessing method": a list that binds the on-screen paragraphs only, loaded
// off the UI thread.
function pregnancyArticle(c: ScenarioCtx, t0: number, fixed: boolean): number {
  const { sim } = c;
  const { width: w, height: h } = sim.device;
  const top = 168 + 520;
  const onScreen = Math.ceil((h - top) / PARAGRAPH_H);
  const count = fixed ? onScreen : 48;
  const paragraphs: SimView[] = Array.from({ length: count }, (_, i) =>
    sim.view("android.widget.TextView", [40, top + i * PARAGRAPH_H, w - 80, PARAGRAPH_H - 30], {
      xml_id: i === 0 ? "article_lead" : null,
      layout_file: ARTICLE_LAYOUT,
      cost: 0.22 + 0.1 * sim.rand(),
    }),
  );
  const header = sim.view("android.widget.ImageView", [0, 168, w, 500], {
    xml_id: "article_image",
    layout_file: ARTICLE_LAYOUT,
    background: true,
    cost: 1.1,
  });
  const body = sim.view(
    fixed ? "android.support.v7.widget.RecyclerView" : "android.widget.LinearLayout",
    [0, top, w, fixed ? h - top : count * PARAGRAPH_H],
    { xml_id: "article_body", layout_file: ARTICLE_LAYOUT, children: paragraphs },
  );
  const root = screenChrome(sim, w, h, [
    sim.view("android.widget.ScrollView", [0, 168, w, h - 168], {
      xml_id: "article_scroll",
      layout_file: ARTICLE_LAYOUT,
      children: [header, body],
    }),
    ...noiseViews(c),
  ]);
  const times = interactionTimes(c, t0, [0.2, 1.6, 2.6, 3.6], 1.0);
  const dbStack = [
    "android.database.sqlite.SQLiteDatabase.rawQuery(SQLiteDatabase.java:1357)",
    "com.hp.pregnancy.lite.article.ArticleFragment.initDB(ArticleFragment.java:214)",
    "com.hp.pregnancy.lite.article.ArticleFragment.onCreateView(ArticleFragment.java:96)",
  ];
  const own: MainMessage[] = fixed
    ? []
    : [
        {
          at: times[0]! + 1 * MS,
          ms: 140,
          cls: "com.hp.pregnancy.lite.article.ArticleFragment",
          stack: dbStack,
        },
      ];
  mainThread(c, t0, times.at(-1)! + 1 * S, own);
  const targets = ["article_list_item", "text_size", "bookmark", "share"];
  for (const [i, at] of times.entries()) {
    sim.input(at, "click", targets[i % targets.length]!);
    sim.animate(at, at + 0.5 * S, root, { layoutFirst: true });
  }
  const below = paragraphs.filter((p) => p.top >= h);
  found(
    c,
    "pregnancy-article",
    fixed,
    "DRAW §VI-C case 3",
    [
      `${below.length} of the article's ${paragraphs.length} TextViews are below the screen yet rendered in every frame`,
      "only the paragraphs on screen are bound, loaded off the UI thread",
    ],
    {
      view_class: "android.widget.TextView",
      layout_file: ARTICLE_LAYOUT,
      offscreen_views: below.map((p) => p.id),
    },
  );
  return Math.max(t0 + 5 * S, times.at(-1)! + 1 * S);
}

const GALLERY = "com.hp.pregnancy.lite.baby.timeline.TimelineScreen$MyTimeLineGallery";

// §VI-D case 4 (Pregnancy+): swiping the baby timeline's gallery. Its getView loads and resizes a bitmap on the
// UI thread and calls System.gc() (Figure 9), so the gallery's draw is long whenever a new image comes in, and
// rendering time follows it (RCS should name the gallery, through draw_time_avg). Fixed: images are decoded
// off the UI thread and the gallery draws the cached bitmap.
function pregnancyTimeline(c: ScenarioCtx, t0: number, fixed: boolean): number {
  const { sim } = c;
  const { width: w, height: h } = sim.device;
  const layout = "res/layout/timeline_screen.xml";
  const galleryTop = 168 + 260;
  const galleryH = 900;
  const items = Array.from({ length: 3 }, (_, i) =>
    sim.view("android.widget.ImageView", [i * Math.floor(w / 3), galleryTop, Math.floor(w / 3), galleryH], {
      xml_id: "timeline_image",
      layout_file: "res/layout/timeline_item.xml",
      cost: 0.4,
    }),
  );
  const gallery = sim.view(GALLERY, [0, galleryTop, w, galleryH], {
    xml_id: "timeline_gallery",
    layout_file: layout,
    cost: 0.5,
    children: items,
  });
  const week = sim.view("android.widget.LinearLayout", [0, 168, w, 260], {
    xml_id: "week_header",
    layout_file: layout,
    background: true,
    cost: 0.2,
    children: [
      sim.view("android.widget.TextView", [40, 190, w - 80, 90], {
        xml_id: "week_title",
        layout_file: layout,
      }),
      sim.view("android.widget.TextView", [40, 300, w - 80, 90], {
        xml_id: "week_days",
        layout_file: layout,
      }),
    ],
  });
  const notes = sim.view("android.widget.TextView", [40, galleryTop + galleryH + 40, w - 80, 600], {
    xml_id: "baby_size_text",
    layout_file: layout,
    cost: 0.6,
  });
  const root = screenChrome(sim, w, h, [week, gallery, notes, ...noiseViews(c)]);
  const own = [0.2, 1.2, 2.0, 2.9, 3.7, 4.6, 5.4, 6.3, 7.1, 8.0];
  const times = interactionTimes(c, t0, own, 0.85);
  mainThread(c, t0, times.at(-1)! + 1 * S);
  for (const [i, at] of times.entries()) {
    const swipe = i % 5 !== 4;
    sim.input(at, swipe ? "swipe" : "click", swipe ? "timeline_gallery" : "week_header");
    // While the gallery moves, getView brings in item after item, each loaded and resized (decode, resize,
    // System.gc()) in the draw, unless its bitmap is still cached.
    const decode = swipe && !fixed && sim.rand() > 0.2 ? 4 + sim.rand() * 10 : 0;
    gallery.cost = 0.5 + decode;
    sim.animate(at, at + 0.55 * S, root, { layoutFirst: swipe });
  }
  found(
    c,
    "pregnancy-timeline",
    fixed,
    "DRAW §VI-D case 4 (Figure 9)",
    [
      "the timeline gallery's draw loads and resizes bitmaps and calls System.gc(): it leads RCS through draw_time_avg",
      "the gallery draws cached bitmaps decoded off the UI thread",
    ],
    { view_id: gallery.id, view_class: GALLERY, xml_id: "timeline_gallery", feature: "draw_time_avg" },
  );
  return Math.max(t0 + 9 * S, times.at(-1)! + 1 * S);
}

type Step = (c: ScenarioCtx, t0: number) => number;
const CASES = {
  faceq,
  picsplay,
  "pregnancy-article": pregnancyArticle,
  "pregnancy-timeline": pregnancyTimeline,
};
/** Each case and its "-fixed" variant. */
export const DRAW_STEPS = Object.fromEntries(
  Object.entries(CASES).flatMap(([name, step]) =>
    [false, true].map((fixed) => [
      fixed ? `${name}-fixed` : name,
      [(c: ScenarioCtx, t0: number) => step(c, t0, fixed)],
    ]),
  ),
) as Record<(typeof DRAW_SCENARIOS)[number], Step[]>;
