/** Google's proto field names (its curl examples' `system_instruction`, `inline_data.mime_type`) read as the JSON names. */
import { camelCaseNames } from '../../../../src/dialects/gemini/camel-case-names.js';
import { parseGeminiRequest } from '../../../../src/dialects/gemini/parse-request.js';

describe('camelCaseNames', () => {
  test('proto names become JSON names; what the caller names itself keeps its names', () => {
    const body = {
      system_instruction: { parts: [{ text: 'Be brief.' }] },
      contents: [
        { role: 'user', parts: [{ text: 'What is this?' }, { inline_data: { mime_type: 'image/png', data: 'AAAA' } }] },
        { role: 'model', parts: [{ function_call: { name: 'f', args: { file_path: '/a', nested_key: { a_b: 1 } } } }] },
        { role: 'user', parts: [{ function_response: { name: 'f', response: { exit_code: 0 } } }] },
      ],
      tools: [
        {
          function_declarations: [
            {
              name: 'f',
              parameters: {
                type: 'OBJECT',
                properties: { file_path: { type: 'STRING', max_length: '9' } },
                property_ordering: ['file_path'],
              },
              parameters_json_schema: { type: 'object', properties: { file_path: { type: 'string' } }, additional_properties: false },
            },
          ],
        },
      ],
      generation_config: { max_output_tokens: 64, top_k: 40, thinking_config: { include_thoughts: true } },
      labels: { team_name: 'x' },
    };
    expect(camelCaseNames(body)).toEqual({
      systemInstruction: { parts: [{ text: 'Be brief.' }] },
      contents: [
        { role: 'user', parts: [{ text: 'What is this?' }, { inlineData: { mimeType: 'image/png', data: 'AAAA' } }] },
        { role: 'model', parts: [{ functionCall: { name: 'f', args: { file_path: '/a', nested_key: { a_b: 1 } } } }] },
        { role: 'user', parts: [{ functionResponse: { name: 'f', response: { exit_code: 0 } } }] },
      ],
      tools: [
        {
          functionDeclarations: [
            {
              name: 'f',
              parameters: {
                type: 'OBJECT',
                properties: { file_path: { type: 'STRING', maxLength: '9' } },
                propertyOrdering: ['file_path'],
              },
              parametersJsonSchema: { type: 'object', properties: { file_path: { type: 'string' } }, additional_properties: false },
            },
          ],
        },
      ],
      generationConfig: { maxOutputTokens: 64, topK: 40, thinkingConfig: { includeThoughts: true } },
      labels: { team_name: 'x' },
    });
  });

  test('a body with JSON names only is the same object (no copy); both names sent: the first counts', () => {
    const camel = { contents: [{ role: 'user', parts: [{ functionCall: { name: 'f', args: { file_path: 'x' } } }] }] };
    expect(camelCaseNames(camel)).toBe(camel);
    expect(camelCaseNames({ generation_config: { top_k: 1 }, generationConfig: { topK: 2 } })).toEqual({ generationConfig: { topK: 1 } });
  });

  test('parsed as the JSON names are', () => {
    const request = parseGeminiRequest(
      camelCaseNames({ contents: [{ role: 'user', parts: [{ text: 'Hi' }] }], generation_config: { max_output_tokens: 7 } }),
      { model: 'm', stream: false },
    );
    expect(request.limits.maxTokens).toBe(7);
  });
});
