/** What the pipeline calls to produce a result: an adapter, or an emulation wrapped around one. */
import type { AdapterContext } from '../../../backend/adapter.js';
import type { NeutralRequest } from '../../../model/request.js';
import type { NeutralResult } from '../../../model/result.js';
import type { StreamBatches } from '../../../model/stream-event.js';

export interface Engine {
  complete(request: NeutralRequest, context: AdapterContext): Promise<NeutralResult>;
  stream(request: NeutralRequest, context: AdapterContext): StreamBatches;
}
