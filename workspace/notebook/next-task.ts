// A macrotask later, without setTimeout's 4 ms clamp on nested timers (HTML's timer initialisation steps): what
// lets long work be cut into tasks that each leave the page free to handle input and paint between them.
export function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}
