import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commandIds, contextKeys } from '../../../src/vscode/common/commandIds';
import { settings } from '../../../src/vscode/common/settings';

interface Manifest {
	activationEvents?: string[];
	extensionKind?: string[];
	contributes: {
		commands: { command: string; title: string; category?: string }[];
		menus: Record<string, { command: string; when?: string }[]>;
		configuration: { properties: Record<string, { scope?: string }> };
	};
}

const manifest = JSON.parse(
	readFileSync(join(__dirname, '..', '..', '..', 'package.json'), 'utf8'),
) as Manifest;
// Titles and categories are %key% placeholders (docs/l10n.md): check the English text they stand for.
const nls = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'package.nls.json'), 'utf8')) as Record<
	string,
	string
>;
const text = (value = '') => nls[/^%(.+)%$/.exec(value)?.[1] ?? ''] ?? value;
const contributed = manifest.contributes.commands;
const ids = Object.values(commandIds);

// Title Case: every word starts with a capital, except short connecting words after the first.
const minorWords = new Set([
	'a',
	'an',
	'and',
	'as',
	'at',
	'by',
	'for',
	'from',
	'in',
	'of',
	'on',
	'or',
	'the',
	'to',
	'with',
]);
function isTitleCase(title: string): boolean {
	return title.split(' ').every((word, i) => /^[A-Z0-9]/.test(word) || (i > 0 && minorWords.has(word)));
}

describe('package.json contributes', () => {
	it('contributes every command in commandIds', () => {
		expect(contributed.map((c) => c.command).sort()).toEqual([...ids].sort());
	});

	it('has no command twice and none outside commandIds', () => {
		const seen = contributed.map((c) => c.command);
		expect(new Set(seen).size).toBe(seen.length);
		expect(seen.filter((id) => !(ids as string[]).includes(id))).toEqual([]);
	});

	it('gives every command the MassGen category and a Title Case title', () => {
		for (const command of contributed) {
			expect(text(command.category), command.command).toBe('MassGen');
			expect(isTitleCase(text(command.title)), `${command.command}: "${text(command.title)}"`).toBe(true);
		}
	});

	it('the Title Case check rejects lower-case words (guards the guard)', () => {
		expect(isTitleCase('Set API Key')).toBe(true);
		expect(isTitleCase('Ask team')).toBe(false);
		expect(isTitleCase('of Team')).toBe(false);
	});

	it('only refers to known commands and context keys in menus', () => {
		const known = new Set<string>(ids);
		for (const [menu, items] of Object.entries(manifest.contributes.menus)) {
			for (const item of items) expect(known.has(item.command), `${menu}: ${item.command}`).toBe(true);
		}
		const palette = manifest.contributes.menus.commandPalette ?? [];
		const when = (id: string) => palette.find((item) => item.command === id)?.when;
		expect(when(commandIds.cancelRun)).toBe(contextKeys.runActive);
		expect(when(commandIds.sendMessageToTeam)).toBe(contextKeys.runActive);
		expect(when(commandIds.finishNow)).toBe(contextKeys.runActive);
		expect(when(commandIds.acceptChanges)).toBe(contextKeys.hasPendingChanges);
		expect(when(commandIds.rejectChanges)).toBe(contextKeys.hasPendingChanges);
	});

	it('declares the config, preview and retention settings with resource scope', () => {
		for (const { key } of [settings.config, settings.previewBeforeApply, settings.runsKeep]) {
			expect(manifest.contributes.configuration.properties[key]?.scope, key).toBe('resource');
		}
	});

	it('activates only through its contributions (and its restored panel) and runs in the workspace', () => {
		// Commands activate implicitly; a panel restored after a reload needs its serializer registered.
		expect(manifest.activationEvents ?? []).toEqual(['onWebviewPanel:massgen.panel']);
		expect(manifest.extensionKind).toEqual(['workspace']);
	});
});
