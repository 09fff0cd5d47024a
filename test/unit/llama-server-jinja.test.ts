/** The `jinja` key of a llama-server backend decides whether chat tools are sent to it. */
import { loadConfig } from '../../src/runtime/configuration.js';
import { translate } from '../../src/commands/translate.js';

const chatWithTools = {
  model: 'local',
  messages: [{ role: 'user', content: 'Weather in Paris?' }],
  tools: [{ type: 'function', function: { name: 'weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }],
};

function configWith(jinja: boolean | undefined) {
  return loadConfig(
    {
      backends: {
        local: { kind: 'llama-server', url: 'http://127.0.0.1:9/v1', speaks: ['chat'], ...(jinja === undefined ? {} : { jinja }) },
      },
      routes: [{ model: '*', backend: 'local' }],
    },
    {},
  );
}

describe('llama-server jinja', () => {
  it('with jinja: true, tools go to the server as they are', async () => {
    const outcome = await translate(configWith(true), chatWithTools);
    expect(outcome.ok).toBe(true);
    expect(JSON.stringify(outcome)).toContain('"name":"weather"');
  });

  it('without it, tools are refused with a 400 naming the field (llama.cpp would answer a 500)', async () => {
    const outcome = await translate(configWith(undefined), chatWithTools);
    expect(outcome).toMatchObject({ ok: false, status: 400, error: { error: { param: 'tools' } } });
  });
});
