/**
 * A GGUF v3 writer (the format llama.cpp loads): header, typed metadata, tensor
 * infos, then tensor data, each tensor aligned. Little-endian throughout.
 * Spec: ggml docs/gguf.md ("File Structure").
 */

/** GGUF metadata value types (`gguf_type`). */
const ValueType = {
  uint8: 0,
  int8: 1,
  uint16: 2,
  int16: 3,
  uint32: 4,
  int32: 5,
  float32: 6,
  bool: 7,
  string: 8,
  array: 9,
  uint64: 10,
  int64: 11,
  float64: 12,
} as const;

type ScalarType = Exclude<keyof typeof ValueType, 'array'>;

export type GgufValue =
  | { type: Exclude<ScalarType, 'string' | 'bool' | 'uint64' | 'int64'>; value: number }
  | { type: 'uint64' | 'int64'; value: bigint }
  | { type: 'bool'; value: boolean }
  | { type: 'string'; value: string }
  | { type: 'array'; itemType: 'string'; value: readonly string[] }
  | { type: 'array'; itemType: 'float32' | 'int32' | 'uint32'; value: readonly number[] };

export interface GgufTensor {
  name: string;
  /** Dimensions in ggml order: ne0 (the contiguous one) first. */
  dims: readonly number[];
  data: Float32Array;
}

export interface GgufContent {
  metadata: ReadonlyArray<readonly [key: string, value: GgufValue]>;
  tensors: readonly GgufTensor[];
  /** Default 32 (`general.alignment` is written when it differs). */
  alignment?: number;
}

const GGML_TYPE_F32 = 0;
const encoder = new TextEncoder();

/** Serialises a model to GGUF v3 bytes. */
export function writeGguf(content: GgufContent): Uint8Array {
  const alignment = content.alignment ?? 32;
  const metadata = [...content.metadata];
  if (alignment !== 32) metadata.push(['general.alignment', { type: 'uint32', value: alignment }]);
  const out = new ByteWriter();
  out.bytes(encoder.encode('GGUF'));
  out.u32(3);
  out.u64(BigInt(content.tensors.length));
  out.u64(BigInt(metadata.length));
  for (const [key, value] of metadata) {
    out.string(key);
    writeValue(out, value);
  }
  let offset = 0;
  const offsets: number[] = [];
  for (const tensor of content.tensors) {
    const elements = tensor.dims.reduce((product, dim) => product * dim, 1);
    if (elements !== tensor.data.length)
      throw new Error(`Tensor ${tensor.name}: dims hold ${elements} values, data has ${tensor.data.length}`);
    out.string(tensor.name);
    out.u32(tensor.dims.length);
    for (const dim of tensor.dims) out.u64(BigInt(dim));
    out.u32(GGML_TYPE_F32);
    out.u64(BigInt(offset));
    offsets.push(offset);
    offset = alignUp(offset + tensor.data.byteLength, alignment);
  }
  out.pad(alignment);
  const dataStart = out.length;
  content.tensors.forEach((tensor, i) => {
    out.pad(alignment, dataStart + offsets[i] - out.length);
    out.float32s(tensor.data);
  });
  return out.finish();
}

function writeValue(out: ByteWriter, value: GgufValue): void {
  if (value.type === 'array') {
    out.u32(ValueType.array);
    out.u32(ValueType[value.itemType]);
    out.u64(BigInt(value.value.length));
    for (const item of value.value) writeScalar(out, value.itemType, item);
    return;
  }
  out.u32(ValueType[value.type]);
  writeScalar(out, value.type, value.value);
}

function writeScalar(out: ByteWriter, type: ScalarType, value: number | bigint | boolean | string): void {
  const view = (size: number, set: (view: DataView) => void) => {
    const buffer = new DataView(new ArrayBuffer(size));
    set(buffer);
    out.bytes(new Uint8Array(buffer.buffer));
  };
  switch (type) {
    case 'uint8':
      return view(1, (v) => v.setUint8(0, value as number));
    case 'int8':
      return view(1, (v) => v.setInt8(0, value as number));
    case 'uint16':
      return view(2, (v) => v.setUint16(0, value as number, true));
    case 'int16':
      return view(2, (v) => v.setInt16(0, value as number, true));
    case 'uint32':
      return out.u32(value as number);
    case 'int32':
      return view(4, (v) => v.setInt32(0, value as number, true));
    case 'float32':
      return view(4, (v) => v.setFloat32(0, value as number, true));
    case 'float64':
      return view(8, (v) => v.setFloat64(0, value as number, true));
    case 'bool':
      return view(1, (v) => v.setUint8(0, value ? 1 : 0));
    case 'uint64':
      return out.u64(value as bigint);
    case 'int64':
      return view(8, (v) => v.setBigInt64(0, value as bigint, true));
    case 'string':
      return out.string(value as string);
  }
}

function alignUp(offset: number, alignment: number): number {
  return Math.ceil(offset / alignment) * alignment;
}

/** Appends to a growing list of chunks; joined once at the end. */
class ByteWriter {
  private chunks: Uint8Array[] = [];
  length = 0;

  bytes(bytes: Uint8Array): void {
    this.chunks.push(bytes);
    this.length += bytes.length;
  }

  u32(value: number): void {
    const view = new DataView(new ArrayBuffer(4));
    view.setUint32(0, value, true);
    this.bytes(new Uint8Array(view.buffer));
  }

  u64(value: bigint): void {
    const view = new DataView(new ArrayBuffer(8));
    view.setBigUint64(0, value, true);
    this.bytes(new Uint8Array(view.buffer));
  }

  string(value: string): void {
    const bytes = encoder.encode(value);
    this.u64(BigInt(bytes.length));
    this.bytes(bytes);
  }

  float32s(values: Float32Array): void {
    const copy = new Float32Array(values); // little-endian on every platform Node supports
    this.bytes(new Uint8Array(copy.buffer));
  }

  /** Zero bytes up to the next multiple of `alignment` (or exactly `count`). */
  pad(alignment: number, count = alignUp(this.length, alignment) - this.length): void {
    if (count > 0) this.bytes(new Uint8Array(count));
  }

  finish(): Uint8Array {
    const out = new Uint8Array(this.length);
    let at = 0;
    for (const chunk of this.chunks) {
      out.set(chunk, at);
      at += chunk.length;
    }
    return out;
  }
}
