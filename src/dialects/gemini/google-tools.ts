/**
 * Google's own tools (Search, code execution, URL context, Maps...) run at Google. Offered in `tools`,
 * the model may use them or not: a backend here goes without, each named in a warning (offered is not
 * forced), never a refusal, as Gemini CLI offers some on every request.
 */
export const GOOGLE_TOOLS = [
  'googleSearch',
  'googleSearchRetrieval',
  'codeExecution',
  'urlContext',
  'googleMaps',
  'fileSearch',
  'retrieval',
  'enterpriseWebSearch',
  'computerUse',
  'mcpServers',
] as const;

export function droppedGoogleTool(at: string, tool: string): string {
  return `${at}.${tool}: Google's ${tool} tool runs at Google, which no backend here is: offered, it was left out`;
}
