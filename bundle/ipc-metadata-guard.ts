// Corrupt flatbuffer metadata can declare vectors of billions of entries, and apache-arrow loops over them
// (out of memory) before anything fails. Every vector entry takes at least 4 bytes of the metadata, so a
// length beyond the metadata's own size is a lie: this finds it before the message is decoded.
import { DictionaryBatch as FbDictionaryBatch } from "apache-arrow/fb/dictionary-batch";
import { Field as FbField } from "apache-arrow/fb/field";
import { Message as FbMessage } from "apache-arrow/fb/message";
import { MessageHeader } from "apache-arrow/fb/message-header";
import { RecordBatch as FbRecordBatch } from "apache-arrow/fb/record-batch";
import { Schema as FbSchema } from "apache-arrow/fb/schema";
import { ByteBuffer } from "flatbuffers";

/** Why the message metadata cannot be real, or undefined when its vectors fit in it. */
export function implausibleMetadata(metadata: Uint8Array): string | undefined {
  const size = metadata.length;
  const tooLong = (what: string, length: number, entryBytes: number) =>
    length < 0 || length * entryBytes > size
      ? `${what} declares ${length} entries in ${size} bytes of metadata`
      : undefined;
  const batch = (rb: FbRecordBatch | null) =>
    rb
      ? (tooLong("record batch field nodes", rb.nodesLength(), 16) ??
        tooLong("record batch buffers", rb.buffersLength(), 16))
      : undefined;
  const field = (f: FbField | null, depth: number): string | undefined => {
    if (!f) return undefined;
    if (depth > 64) return "fields nest deeper than 64 levels";
    const own =
      tooLong("field children", f.childrenLength(), 4) ??
      tooLong("field metadata", f.customMetadataLength(), 4);
    if (own) return own;
    for (let i = 0; i < f.childrenLength(); i++) {
      const bad = field(f.children(i), depth + 1);
      if (bad) return bad;
    }
    return undefined;
  };
  try {
    const message = FbMessage.getRootAsMessage(new ByteBuffer(metadata));
    switch (message.headerType()) {
      case MessageHeader.Schema: {
        const schema = message.header(new FbSchema()) as FbSchema | null;
        if (!schema) return undefined;
        const own =
          tooLong("schema fields", schema.fieldsLength(), 4) ??
          tooLong("schema metadata", schema.customMetadataLength(), 4);
        if (own) return own;
        for (let i = 0; i < schema.fieldsLength(); i++) {
          const bad = field(schema.fields(i), 0);
          if (bad) return bad;
        }
        return undefined;
      }
      case MessageHeader.RecordBatch:
        return batch(message.header(new FbRecordBatch()) as FbRecordBatch | null);
      case MessageHeader.DictionaryBatch:
        return batch((message.header(new FbDictionaryBatch()) as FbDictionaryBatch | null)?.data() ?? null);
      default:
        return undefined;
    }
  } catch (e) {
    return `unreadable metadata (${(e as Error).message})`;
  }
}
