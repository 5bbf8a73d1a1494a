import type { Readable } from "node:stream";
import { SaxesParser } from "saxes";
import { UnreadableFileError } from "./errors";

export type XmlHandlers = {
  open?: (name: string, attributes: Record<string, string>) => void;
  close?: (name: string) => void;
  text?: (text: string) => void;
};

/**
 * Stream an XML entry through a SAX parser (names without namespace prefix). Text between two
 * tags may not exceed `maxTextBytes`: a 50 MB cell is refused before it is held in memory.
 */
export async function readXml(stream: Readable, handlers: XmlHandlers, maxTextBytes: number, signal?: AbortSignal) {
  for await (const _chunk of parseXml(stream, handlers, maxTextBytes, signal)) void _chunk;
}

/**
 * readXml one chunk at a time: the handlers run for the chunk's nodes, then the generator pauses,
 * so a caller can hand on what they collected (rows) before the next chunk is read.
 */
export async function* parseXml(stream: Readable, handlers: XmlHandlers, maxTextBytes: number, signal?: AbortSignal): AsyncGenerator<void> {
  const parser = new SaxesParser({ xmlns: false });
  let failure: Error | null = null;
  parser.on("error", (error) => {
    failure ??= new UnreadableFileError(`The spreadsheet XML is malformed: ${error.message.split("\n")[0]}`);
  });
  if (handlers.open) {
    const open = handlers.open;
    parser.on("opentag", (tag) => open(localName(tag.name), tag.attributes as Record<string, string>));
  }
  if (handlers.close) {
    const close = handlers.close;
    parser.on("closetag", (tag) => close(localName(tag.name)));
  }
  if (handlers.text) parser.on("text", handlers.text);
  const decoder = new TextDecoder("utf-8");
  let run = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      if (signal?.aborted) throw new Error("Processing was cancelled");
      const lt = chunk.lastIndexOf(0x3c);
      run = lt === -1 ? run + chunk.length : chunk.length - lt - 1;
      if (run > maxTextBytes) {
        throw new UnreadableFileError(`A cell is too large: more than ${Math.round(maxTextBytes / 1024 / 1024)} MB of text in one place`);
      }
      parser.write(decoder.decode(chunk, { stream: true }));
      if (failure) throw failure;
      yield;
    }
    parser.write(decoder.decode());
    parser.close();
    if (failure) throw failure;
  } finally {
    stream.destroy();
  }
}

function localName(name: string) {
  const colon = name.indexOf(":");
  return colon === -1 ? name : name.slice(colon + 1);
}
