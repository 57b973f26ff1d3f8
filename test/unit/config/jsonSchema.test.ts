import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { backendTypes } from '../../../src/core/config/backendSchema.js';
import { buildJsonSchema, jsonSchemaText } from '../../../src/core/config/jsonSchema.js';

const committed = join(__dirname, '..', '..', '..', 'configs', 'massgen.schema.json');

describe('configs/massgen.schema.json', () => {
	it('is current (run `npm run schema` after changing the zod schema)', () => {
		expect(readFileSync(committed, 'utf8')).toBe(jsonSchemaText());
	});

	it('describes the config as written: both agent forms, the backend types, defaults', () => {
		const schema = buildJsonSchema() as {
			properties: Record<string, { $ref?: string; items?: { $ref?: string } }>;
			$defs: Record<string, { properties: { backend: { properties: { type: { enum: string[] } } } } }>;
		};
		expect(Object.keys(schema.properties)).toEqual([
			'agent',
			'agents',
			'orchestrator',
			'timeout_settings',
			'ui',
			'permissions',
		]);
		expect(schema.properties.agent!.$ref).toBe('#/$defs/ConfigAgent');
		expect(schema.properties.agents!.items!.$ref).toBe('#/$defs/ConfigAgent');
		expect(schema.$defs.ConfigAgent!.properties.backend.properties.type.enum).toEqual([...backendTypes]);
		expect(jsonSchemaText()).toContain('"default": 1800');
	});
});
