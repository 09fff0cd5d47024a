/**
 * openapi-backend (CommonJS) require()s @apidevtools/json-schema-ref-parser,
 * which is ESM-only. Node 20.19+ allows that; Jest's module runtime (before
 * Node 24.9) does not. So the require is handed the same package, imported as ESM.
 */
import { jest } from '@jest/globals';
import $RefParser from '@apidevtools/json-schema-ref-parser';

jest.mock('@apidevtools/json-schema-ref-parser', () => ({ __esModule: true, default: $RefParser }));
