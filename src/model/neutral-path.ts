/**
 * Typed dotted paths into the neutral request (`sampling.topK`, `limits.stop`),
 * so that `setPath`, `origins` and the backend tables reject a typo at compile
 * time. Defined beside the request they walk (request.ts), which names them in `origins`.
 */
export type { NeutralPath } from './request.js';
