// Autosave: every keystroke's notebook text goes to localStorage under the notebook's path, so a crash or
// reload loses nothing; an explicit save or discard clears it.
const PREFIX = "jankbook:autosave:";

export function saveDraft(path: string, text: string): void {
  try {
    localStorage.setItem(PREFIX + path, JSON.stringify({ text, at: new Date().toISOString() }));
  } catch {
    // Storage full or disabled: the editor still works, recovery just is not possible.
  }
}

export function loadDraft(path: string): { text: string; at: string } | undefined {
  try {
    const raw = localStorage.getItem(PREFIX + path);
    return raw ? (JSON.parse(raw) as { text: string; at: string }) : undefined;
  } catch {
    return undefined;
  }
}

export function clearDraft(path: string): void {
  localStorage.removeItem(PREFIX + path);
}
