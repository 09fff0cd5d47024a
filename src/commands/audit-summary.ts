/** What `dialect-proxy audit` finds over a file of recorded requests: built by audit-command.ts, rendered by audit-output.ts. */
import type { ChangeAction } from '../pipeline/report/change.js';

export interface ChangeCount {
  field: string;
  action: ChangeAction;
  /** The wire field it went out as (as the first such request had it). */
  to?: string;
  lossy: boolean;
  /** Requests with this change. */
  requests: number;
  /** The reason, as the first such request gave it. */
  reason: string;
}

export interface TargetSummary {
  /** The backend's name (a kind's name for --to). */
  target: string;
  kind: string;
  speaks: string[];
  requests: number;
  lossless: number;
  lossy: number;
  rejected: number;
  changes: ChangeCount[];
}

export interface AuditSummary {
  object: 'dialect.audit';
  file: string;
  /** Non-empty lines read. */
  lines: number;
  /** Lines that are not a JSON object, and lines too long to read (`tooLong`). */
  unreadable: number;
  /** The file's line numbers (1-based, blank lines counted) of the first 20 lines that are not a JSON object. */
  unreadableLines: number[];
  /** Present when lines were longer than the bound: not read (a line is held whole to be parsed), the next one is. */
  tooLong?: {
    /** The bound: `--max-line-bytes`, else the config's `server.maxBodyBytes` (its default without `--config`). */
    maxLineBytes: number;
    lines: number;
    /** The line numbers of the first 20. */
    lineNumbers: number[];
  };
  /** Requests the caller's dialect refuses (malformed): no backend would see them, on any target. */
  malformed: {
    requests: number;
    /** Per field: how many, and the line number and error of the first. */
    fields: { field: string; requests: number; line: number; reason: string }[];
  };
  /** With --config: requests whose model no route serves. */
  unrouted?: number;
  targets: TargetSummary[];
}
