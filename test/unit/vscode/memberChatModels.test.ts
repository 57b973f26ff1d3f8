import { afterEach, describe, expect, it } from 'vitest';
import * as vscode from 'vscode';
import { massgenVendor, memberChatModels } from '../../../src/vscode/lm/memberChatModels';
import { lookupChatModel } from '../../../src/vscode/lm/vscodeLmModel';

const fakeLm = vscode.lm as unknown as { models: unknown[] };
const model = (vendor: string, family: string) => ({
	id: `${vendor}-${family}`,
	vendor,
	family,
	name: family,
});

describe('a team never takes a MassGen team as a member (no run inside a run)', () => {
	afterEach(() => {
		fakeLm.models = [];
	});

	it('memberChatModels lists every vendor but massgen', async () => {
		fakeLm.models = [
			model('copilot', 'gpt-4o'),
			model(massgenVendor, 'massgen-team'),
			model('ollama', 'qwen'),
		];
		expect((await memberChatModels()).map((m) => m.id)).toEqual(['copilot-gpt-4o', 'ollama-qwen']);
	});

	it('a vscode_lm member naming our model by id, family, name or vendor/family finds nothing', async () => {
		fakeLm.models = [{ id: 'team', vendor: massgenVendor, family: 'massgen-team', name: 'MassGen: demo' }];
		for (const wanted of ['team', 'massgen-team', 'MassGen: demo', 'massgen/massgen-team']) {
			expect(await lookupChatModel(wanted)).toBeUndefined();
		}
		fakeLm.models.push(model('copilot', 'massgen-team'));
		expect((await lookupChatModel('massgen-team'))?.vendor).toBe('copilot');
	});
});
