/** Types whose `base_url` MassGen falls back to an environment variable for (its azure_openai backend). */
export const baseUrlVariables: Readonly<Record<string, string>> = { azure_openai: 'AZURE_OPENAI_ENDPOINT' };
