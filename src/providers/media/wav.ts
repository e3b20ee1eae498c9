/**
 * Reads the header of a WAV file: the transcription providers check their input with it, and the
 * media providers report the duration of what they produced without spawning ffprobe.
 */
import { open } from "node:fs/promises";

export interface WavInfo {
  sampleRate: number;
  channels: number;
  bitsPerSample: number;
  /** 1 = integer PCM. */
  audioFormat: number;
  dataBytes: number;
  durationSeconds: number;
}

/** Enough to hold the RIFF header plus the `LIST`/`fact` chunks ffmpeg and espeak-ng write before `data`. */
const HEADER_BYTES = 64 * 1024;

/** Returns the WAV's format, or null when the file is not a RIFF/WAVE file with `fmt ` and `data` chunks. */
export async function readWavInfo(path: string): Promise<WavInfo | null> {
  const file = await open(path, "r");
  try {
    const { size } = await file.stat();
    const buf = Buffer.alloc(Math.min(HEADER_BYTES, size));
    await file.read(buf, 0, buf.length, 0);
    return parseWavHeader(buf, size);
  } finally {
    await file.close();
  }
}

export function parseWavHeader(buf: Buffer, fileSize: number): WavInfo | null {
  if (buf.length < 12 || buf.toString("ascii", 0, 4) !== "RIFF" || buf.toString("ascii", 8, 12) !== "WAVE") return null;
  let fmt: Omit<WavInfo, "dataBytes" | "durationSeconds"> | null = null;
  for (let pos = 12; pos + 8 <= buf.length; ) {
    const id = buf.toString("ascii", pos, pos + 4);
    const size = buf.readUInt32LE(pos + 4);
    const body = pos + 8;
    if (id === "fmt " && body + 16 <= buf.length) {
      fmt = {
        audioFormat: buf.readUInt16LE(body),
        channels: buf.readUInt16LE(body + 2),
        sampleRate: buf.readUInt32LE(body + 4),
        bitsPerSample: buf.readUInt16LE(body + 14),
      };
    } else if (id === "data" && fmt) {
      // Streamed writers leave the size as 0 or 0xFFFFFFFF: the data then runs to the end of the file.
      const dataBytes = size === 0 || size === 0xffffffff ? fileSize - body : Math.min(size, fileSize - body);
      const bytesPerSecond = fmt.sampleRate * fmt.channels * (fmt.bitsPerSample / 8);
      return { ...fmt, dataBytes, durationSeconds: bytesPerSecond > 0 ? dataBytes / bytesPerSecond : 0 };
    }
    pos = body + size + (size % 2); // chunks are padded to an even length
  }
  return null;
}

/** True for the format the speech recognisers expect: 16 kHz, mono, 16-bit integer PCM. */
export function isSpeechWav(info: WavInfo | null): info is WavInfo {
  return !!info && info.sampleRate === 16_000 && info.channels === 1 && info.bitsPerSample === 16 && info.audioFormat === 1;
}
