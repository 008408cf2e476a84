// Opening and saving notebook files: the File System Access API where the browser has it, an upload
// and a download otherwise.
interface PickerWindow {
  showOpenFilePicker?: (o: object) => Promise<FileSystemFileHandle[]>;
  showSaveFilePicker?: (o: object) => Promise<FileSystemFileHandle>;
}
const types = [{ description: "jankbook notebook", accept: { "text/markdown": [".md"] } }];

export async function openNotebookFile(): Promise<
  { name: string; text: string; handle?: FileSystemFileHandle } | undefined
> {
  const w = window as unknown as PickerWindow;
  if (w.showOpenFilePicker) {
    const [handle] = await w.showOpenFilePicker({ types }).catch(() => [] as FileSystemFileHandle[]);
    if (!handle) return undefined;
    const file = await handle.getFile();
    return { name: file.name, text: await file.text(), handle };
  }
  return new Promise((resolve) => {
    const input = Object.assign(document.createElement("input"), {
      type: "file",
      accept: ".md,text/markdown",
    });
    input.addEventListener("change", async () => {
      const file = input.files?.[0];
      resolve(file ? { name: file.name, text: await file.text() } : undefined);
    });
    input.click();
  });
}

export async function saveNotebookFile(
  name: string,
  text: string,
  handle?: FileSystemFileHandle,
): Promise<FileSystemFileHandle | undefined> {
  const w = window as unknown as PickerWindow;
  const target =
    handle ??
    (w.showSaveFilePicker
      ? await w.showSaveFilePicker({ suggestedName: name, types }).catch(() => undefined)
      : undefined);
  if (target) {
    const writable = await (
      target as FileSystemFileHandle & { createWritable(): Promise<FileSystemWritableFileStream> }
    ).createWritable();
    await writable.write(text);
    await writable.close();
    return target;
  }
  const a = Object.assign(document.createElement("a"), {
    href: URL.createObjectURL(new Blob([text], { type: "text/markdown" })),
    download: name,
  });
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  return undefined;
}
