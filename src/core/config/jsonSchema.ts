import { z } from 'zod';
import { massGenConfigSchema } from './schema.js';

/**
 * JSON Schema (draft 2020-12) of the config as written, generated from the zod schema, for
 * editor completion and checks (`yamlValidation`, or `# yaml-language-server: $schema=…`).
 * `configs/massgen.schema.json` is this, and a test fails when the committed file is stale.
 */
export function buildJsonSchema(): Record<string, unknown> {
	const generated = z.toJSONSchema(massGenConfigSchema, { io: 'input', unrepresentable: 'any' });
	const { $schema, ...rest } = generated;
	return {
		$schema,
		title: 'MassGen for VS Code config',
		description: 'A MassGen-compatible team of agents. Unknown backend keys are passed to the provider.',
		...rest,
	};
}

/** The exact text of `configs/massgen.schema.json`. */
export function jsonSchemaText(): string {
	return `${JSON.stringify(buildJsonSchema(), null, '\t')}\n`;
}
