/**
 * What a dialect's own fields become upstream, as data for the translation
 * report (src/pipeline/report/plan-changes.ts): the fields no neutral field
 * names, whose fate is no backend table's to decide. A dialect with the
 * conversation in other fields, or options the proxy honours itself, says so
 * here; the report needs no code of its own for it.
 */
import type { WireForm } from '../model/wire-form.js';

export interface DialectWire {
  /** The family of wire bodies its fields have the form of. */
  form: WireForm;
  /** Its conversation fields, and the part each carries (chat's messages carry the system turn among the turns). */
  conversation: Readonly<Record<string, 'turns' | 'system'>>;
  /** `stream_options` keys the proxy honours itself, and how; `unless`: the value the proxy asks upstream anyway (no change). */
  streamOptions?: Readonly<Record<string, { how: string; unless?: unknown }>>;
  /** Fields the proxy takes into account itself (kept for the answer), where no neutral field names them. */
  keptByTheProxy?: readonly string[];
}

/** The stream options chat and completions callers share (common-fields.ts' streamFields). */
export const OPENAI_STREAM_OPTIONS: DialectWire['streamOptions'] = {
  include_usage: { how: 'usage is always asked for upstream; the proxy passes it on in the stream only when asked', unless: true },
  buffer_tokens: { how: 'the proxy buffers and coalesces the stream' },
  buffer_ms: { how: 'the proxy buffers and coalesces the stream' },
  buffer_mode: { how: 'the proxy buffers and coalesces the stream' },
};
