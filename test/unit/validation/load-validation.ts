/**
 * Loads src/validation inside Jest. openapi-backend (CommonJS) require()s
 * @apidevtools/json-schema-ref-parser, which is ESM-only: Node >= 20.19 allows
 * that, Jest's CommonJS runtime on Node < 24.9 does not. So the require is handed
 * the same package imported as ESM, and src/validation is imported after that.
 */
import { jest } from '@jest/globals';
import $RefParser from '@apidevtools/json-schema-ref-parser';

jest.mock('@apidevtools/json-schema-ref-parser', () => ({ __esModule: true, default: $RefParser }));

export const validation = await import('../../../src/validation/index.js');
