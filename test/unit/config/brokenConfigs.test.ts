import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatIssue } from '../../../src/core/config/configIssue.js';
import { loadConfigFile, loadConfigText, maxConfigBytes } from '../../../src/core/config/loadConfig.js';

const dir = join(__dirname, '..', '..', 'fixtures', 'config', 'broken');

/** `line:col severity code` and a fragment of the message, for every issue, in order. */
type Expected = readonly [at: string, severity: 'error' | 'warning', code: string, fragment: string];

const cases: Readonly<Record<string, readonly Expected[]>> = {
	'syntax-unclosed-flow.yaml': [
		[
			'3:1',
			'error',
			'yaml-bad-indent',
			'YAML syntax: Flow map in block collection must be sufficiently indented',
		],
	],
	'bad-indentation.yaml': [
		['5:1', 'error', 'yaml-bad-indent', 'All mapping items must start at the same column'],
	],
	'tab-indent.yaml': [['4:1', 'error', 'yaml-tab-as-indent', 'tab used for indentation']],
	'json-unclosed.yaml': [['6:1', 'error', 'yaml-bad-indent', 'end with a }']],
	'duplicate-keys.yaml': [['5:7', 'error', 'yaml-duplicate-key', "duplicate key 'model'"]],
	'empty.yaml': [['1:1', 'error', 'empty-file', 'the config is empty']],
	'root-list.yaml': [['1:1', 'error', 'root-not-mapping', 'the top level must be a mapping (key: value)']],
	'agent-and-agents.yaml': [
		['3:1', 'error', 'agent-and-agents', "use either 'agent' (one agent) or 'agents' (a list), not both"],
	],
	'multiple-documents.yaml': [['3:1', 'error', 'yaml-multiple-docs', 'a config is a single YAML document']],
	'empty-agents.yaml': [['1:9', 'error', 'too-small', 'agents: needs at least 1 item, got an empty list']],
	'script-unknown-key.yaml': [
		['7:13', 'error', 'unknown-key', "unknown key 'anser' in agents[0].backend.script.coordination[0]"],
	],
	'no-agents.yaml': [['2:1', 'error', 'no-agents', "no agents: add 'agents:'"]],
	'agents-not-list.yaml': [['2:3', 'error', 'invalid-type', 'agents: expected a list, got a mapping']],
	'missing-backend.yaml': [['2:5', 'error', 'invalid-type', "agents[0]: missing required key 'backend'"]],
	'unknown-backend-type.yaml': [
		['4:13', 'error', 'unknown-backend-type', "unknown backend type 'openia' (did you mean 'openai'?)"],
	],
	'model-not-inferable.yaml': [
		[
			'4:12',
			'error',
			'unknown-backend-type',
			"cannot infer the backend type from model 'llama3.2': add 'type'",
		],
	],
	'bad-temperature-type.yaml': [
		['5:20', 'error', 'invalid-type', "agents[0].backend.temperature: expected a number, got 'warm'"],
	],
	'temperature-out-of-range.yaml': [
		['4:18', 'error', 'too-big', 'agent.backend.temperature: must be at most 2, got 3.5'],
	],
	'negative-max-new-answers.yaml': [
		['4:30', 'error', 'too-small', 'orchestrator.max_new_answers_per_agent: must be at least 1, got -1'],
	],
	'duplicate-ids.yaml': [
		['4:9', 'error', 'duplicate-agent-id', "agents[1].id: duplicate id 'expert' (already used by agents[0])"],
	],
	'duplicate-default-id.yaml': [
		[
			'4:5',
			'error',
			'duplicate-agent-id',
			"duplicate id 'agent2' (already used by agents[0]); this agent has no 'id'",
		],
	],
	'bad-url.yaml': [
		[
			'6:17',
			'error',
			'invalid-format',
			"base_url: expected an http(s) URL such as http://localhost:11434/v1, got 'localhost:",
		],
	],
	'chatcompletion-no-base-url.yaml': [
		['3:5', 'error', 'missing-base-url', "type chatcompletion needs 'base_url'"],
	],
	'scripted-without-script.yaml': [
		['3:5', 'error', 'missing-script', "agents[0].backend: type scripted needs 'script'"],
	],
	'script-on-openai.yaml': [
		['6:7', 'error', 'script-not-scripted', "'script' is only allowed with type: scripted"],
	],
	'bad-voting-sensitivity.yaml': [
		[
			'4:23',
			'error',
			'invalid-value',
			"'strickt' is not one of 'lenient', 'balanced', 'strict', 'checklist_gated' (did you mean 'strict'?)",
		],
	],
	'checklist-bootstrap-subagent.yaml': [
		[
			'6:20',
			'error',
			'unsupported-value',
			"criteria_mode: 'bootstrap_subagent' (MassGen's critic agent between rounds) is not supported: use static or bootstrap_inline",
		],
		[
			'7:5',
			'warning',
			'unsupported-key',
			"'checklist_criteria_preset' in orchestrator.coordination is not supported yet and is ignored: MassGen’s named criteria sets are not bundled here",
		],
	],
	'checklist-without-criteria.yaml': [
		[
			'4:23',
			'error',
			'checklist-without-criteria',
			'orchestrator.voting_sensitivity: checklist_gated needs criteria: give orchestrator.coordination.checklist_criteria_inline',
		],
		['5:21', 'error', 'too-big', 'orchestrator.voting_threshold: must be at most 10, got 11'],
	],
	'checklist-bad-criterion.yaml': [
		[
			'8:19',
			'error',
			'invalid-value',
			"checklist_criteria_inline[0].category: 'must' is not one of 'primary'",
		],
		['9:15', 'error', 'too-small', 'checklist_criteria_inline[1].text: must not be empty'],
	],
	'bad-context-path.yaml': [
		['6:19', 'error', 'invalid-value', "permission: 'readwrite' is not one of 'read', 'write'"],
	],
	'unknown-key-typo.yaml': [
		[
			'5:3',
			'warning',
			'unknown-key',
			"'voting_sensitivty' in orchestrator (did you mean 'voting_sensitivity'?)",
		],
	],
	'backend-key-typo.yaml': [
		[
			'5:7',
			'warning',
			'unknown-key',
			"unknown key 'temprature' in agents[0].backend (did you mean 'temperature'?)",
		],
	],
	'massgen-unsupported.yaml': [
		[
			'7:7',
			'warning',
			'unsupported-key',
			"MassGen key 'custom_tools' in agents[0].backend is Python-only and is ignored: Python functions MassGen imports and calls; give the agent an MCP server instead",
		],
	],
	'max-orchestration-restarts.yaml': [
		[
			'5:33',
			'error',
			'too-big',
			'orchestrator.coordination.max_orchestration_restarts: must be at most 5, got 9',
		],
	],
	'orchestrator-timeout.yaml': [
		[
			'4:3',
			'warning',
			'unsupported-key',
			"'orchestrator.timeout' is ignored (MassGen ignores it too): use top-level",
		],
	],
	'ui-display-type.yaml': [
		['4:17', 'warning', 'unsupported-value', "ui.display_type 'silent' is not supported"],
	],
	'deep-nesting.yaml': [
		['2:109', 'error', 'yaml-too-deep', "'[' and '{' nest more than 100 levels deep here"],
	],
	'alias-bomb.yaml': [
		['7:37', 'error', 'yaml-alias-expansion', "YAML aliases expand the config past 2 MiB at '*l5'"],
	],
	'several-problems.yaml': [
		['5:19', 'error', 'too-small', 'agents[0].backend.max_tokens: must be greater than 0, got 0'],
		['7:5', 'error', 'missing-model', "agents[1].backend: missing required key 'model'"],
		['10:31', 'error', 'invalid-value', "answer_novelty_requirement: 'high' is not one of"],
		['11:28', 'error', 'invalid-type', 'max_tool_calls_per_turn: expected an integer, got 2.5'],
		['13:33', 'error', 'invalid-type', "orchestrator_timeout_seconds: expected a number, got '30'"],
	],
};

describe('broken configs', () => {
	it('every fixture has a row and every row a fixture', () => {
		expect(readdirSync(dir).sort()).toEqual(Object.keys(cases).sort());
	});

	for (const [file, expected] of Object.entries(cases)) {
		it(file, () => {
			const result = loadConfigText(readFileSync(join(dir, file), 'utf8'), file);
			const got = result.issues.map((i) => [`${i.line}:${i.col}`, i.severity, i.code, i.message] as const);
			expect(got.map(([at, severity, code]) => [at, severity, code])).toEqual(
				expected.map(([at, severity, code]) => [at, severity, code]),
			);
			got.forEach(([, , , message], index) => expect(message).toContain(expected[index]![3]));
			const hasError = expected.some(([, severity]) => severity === 'error');
			expect(result.config === undefined).toBe(hasError);
			for (const issue of result.issues) {
				expect(issue.file).toBe(file);
				expect(formatIssue(issue)).toBe(
					`${file}:${issue.line}:${issue.col}: ${issue.severity}: ${issue.message}`,
				);
			}
		});
	}
});

describe('config size limits', () => {
	const agents = 'agents:\n  - backend: { type: scripted, script: { coordination: [{ answer: hi }] } }\n';

	it.each([300, 900])(
		'a 1 MB config with %i aliases of one big anchor is an error, in bounded memory',
		(copies) => {
			// yaml's maxAliasCount does not see these (the anchor holds no alias); expanded, they are 270+ MB.
			const text = `x-big: &big "${'x'.repeat(900_000)}"\nx-copies: [${Array(copies).fill('*big').join(', ')}]\n${agents}`;
			expect(text.length).toBeLessThan(maxConfigBytes);
			const heapBefore = process.memoryUsage().heapUsed;
			const result = loadConfigText(text, 'big.yaml');
			expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(100 * 1024 * 1024);
			expect(result.config).toBeUndefined();
			expect(result.issues.map(formatIssue)).toEqual([
				"big.yaml:2:18: error: YAML aliases expand the config past 2 MiB at '*big': a team config is a few KB; " +
					'use the alias less or anchor something smaller',
			]);
		},
	);

	it('400,000 nested brackets are refused at once; brackets in strings, comments and earlier keys do not count', () => {
		const deep = loadConfigText(`x: ${'['.repeat(400_000)}${']'.repeat(400_000)}\n${agents}`, 'deep.yaml');
		expect(deep.issues.map((i) => `${i.line}:${i.col} ${i.code}`)).toEqual(['1:104 yaml-too-deep']);
		const opens = '['.repeat(150);
		const fine = [
			`a: "${opens}"`,
			`b: '${opens}'' ${opens}'`,
			`c: 1 # ${opens}`,
			`d: ${'['.repeat(60)}`,
			// A new top-level key: the unclosed brackets above (a YAML error of its own) do not carry over.
			`e: ${'['.repeat(60)}${']'.repeat(60)}`,
		].join('\n');
		expect(loadConfigText(`${fine}\n${agents}`, 'fine.yaml').issues.map((i) => i.code)).not.toContain(
			'yaml-too-deep',
		);
	});

	it('refuses a config file over 1 MiB before reading it whole', async () => {
		const dir = mkdtempSync(join(tmpdir(), 'massgen-config-'));
		try {
			const file = join(dir, 'huge.yaml');
			writeFileSync(file, `${agents}# ${'x'.repeat(maxConfigBytes)}\n`);
			const result = await loadConfigFile(file);
			expect(result.config).toBeUndefined();
			expect(result.issues.map(formatIssue)).toEqual([
				`${file}:1:1: error: the config is ${maxConfigBytes + agents.length + 3} bytes, over the 1 MiB limit for a team config`,
			]);
			expect(loadConfigText(readFileSync(file, 'utf8'), 'x.yaml').issues[0]?.code).toBe('file-too-large');
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});
});
