// The framestats column layouts each Android release prints (AOSP libs/hwui/FrameInfo.cpp, FrameInfoNames).
// The parser reads columns by the header line; these say what each version is expected to print.

/** A layout's header names, as one string a release (easier to compare by eye than one name a line). */
const names = (header: string): readonly string[] => header.trim().split(/\s+/);

/** Column layouts of FrameInfo.cpp's FrameInfoNames across releases (what the header line prints). */
export const FRAMESTATS_LAYOUTS: readonly {
  since_api: number;
  release: string;
  columns: readonly string[];
}[] = [
  {
    since_api: 23, // framestats first printed in Android 6.0
    release: "6.0-7.1",
    columns: names(`
      Flags IntendedVsync Vsync OldestInputEvent NewestInputEvent HandleInputStart AnimationStart
      PerformTraversalsStart DrawStart SyncQueued SyncStart IssueDrawCommandsStart SwapBuffers
      FrameCompleted
    `),
  },
  {
    since_api: 26,
    release: "8.0-9",
    columns: names(`
      Flags IntendedVsync Vsync OldestInputEvent NewestInputEvent HandleInputStart AnimationStart
      PerformTraversalsStart DrawStart SyncQueued SyncStart IssueDrawCommandsStart SwapBuffers
      FrameCompleted DequeueBufferDuration QueueBufferDuration
    `),
  },
  {
    since_api: 29,
    release: "10-11",
    columns: names(`
      Flags IntendedVsync Vsync OldestInputEvent NewestInputEvent HandleInputStart AnimationStart
      PerformTraversalsStart DrawStart SyncQueued SyncStart IssueDrawCommandsStart SwapBuffers
      FrameCompleted DequeueBufferDuration QueueBufferDuration GpuCompleted
    `),
  },
  {
    since_api: 31,
    release: "12-12L",
    columns: names(`
      Flags FrameTimelineVsyncId IntendedVsync Vsync InputEventId HandleInputStart AnimationStart
      PerformTraversalsStart DrawStart FrameDeadline FrameStartTime SyncQueued SyncStart
      IssueDrawCommandsStart SwapBuffers FrameCompleted DequeueBufferDuration QueueBufferDuration
      GpuCompleted SwapBuffersCompleted DisplayPresentTime
    `),
  },
  {
    since_api: 33,
    release: "13",
    columns: names(`
      Flags FrameTimelineVsyncId IntendedVsync Vsync InputEventId HandleInputStart AnimationStart
      PerformTraversalsStart DrawStart FrameDeadline FrameStartTime FrameInterval SyncQueued SyncStart
      IssueDrawCommandsStart SwapBuffers FrameCompleted DequeueBufferDuration QueueBufferDuration
      GpuCompleted SwapBuffersCompleted DisplayPresentTime
    `),
  },
  {
    since_api: 34,
    release: "14",
    columns: names(`
      Flags FrameTimelineVsyncId IntendedVsync Vsync InputEventId HandleInputStart AnimationStart
      PerformTraversalsStart DrawStart FrameDeadline FrameStartTime FrameInterval SyncQueued SyncStart
      IssueDrawCommandsStart SwapBuffers FrameCompleted DequeueBufferDuration QueueBufferDuration
      GpuCompleted SwapBuffersCompleted DisplayPresentTime CommandSubmissionCompleted
    `),
  },
  {
    since_api: 35,
    release: "15",
    columns: names(`
      Flags FrameTimelineVsyncId IntendedVsync Vsync InputEventId HandleInputStart AnimationStart
      PerformTraversalsStart DrawStart FrameDeadline FrameStartTime FrameInterval WorkloadTarget
      SyncQueued SyncStart IssueDrawCommandsStart SwapBuffers FrameCompleted DequeueBufferDuration
      QueueBufferDuration GpuCompleted SwapBuffersCompleted DisplayPresentTime
      CommandSubmissionCompleted
    `),
  },
  {
    since_api: 36,
    release: "16",
    columns: names(`
      Flags FrameTimelineVsyncId IntendedVsync Vsync InputEventId HandleInputStart AnimationStart
      PerformTraversalsStart DrawStart FrameDeadline FrameStartTime FrameInterval WorkloadTarget
      AnimationTime SyncQueued SyncStart IssueDrawCommandsStart SwapBuffers FrameCompleted
      DequeueBufferDuration QueueBufferDuration GpuCompleted SwapBuffersCompleted DisplayPresentTime
      CommandSubmissionCompleted
    `),
  },
];

/** The layout a device of this API level prints (null below API 23: no framestats). */
export function framestatsLayoutFor(api: number): readonly string[] | null {
  let found: readonly string[] | null = null;
  for (const l of FRAMESTATS_LAYOUTS) if (api >= l.since_api) found = l.columns;
  return found;
}

/** FrameInfo column name -> frames table column (IntendedVsync -> intended_vsync). */
export function frameColumnName(header: string): string {
  return header.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();
}
