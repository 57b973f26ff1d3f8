// In-host (docs/l10n.md): the extension's runtime strings in real VS Code. The window runs in English
// (code-server here has no German language pack), so this checks what English shows and how the
// German bundle is wired: the manifest's `l10n` folder with bundle.l10n.de.json in the installed
// extension, VS Code's own `vscode.l10n.t` formatting (the unit fake copies it), and the panel's
// snapshot carrying the whole strings table the webview renders from.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'mocha';
import * as vscode from 'vscode';
import type { HostMessage } from '../../src/protocol/messages';
import { webviewStringKeys } from '../../src/protocol/stringsTable';
import { englishTexts, webviewStrings } from '../../src/vscode/panel/panelStrings';
import { openOwnPanel, type OwnPanel } from './ownPanel';

describe('l10n: runtime strings through vscode.l10n', () => {
	let extension: vscode.Extension<unknown>;
	let own: OwnPanel | undefined;

	before(async () => {
		const found = vscode.extensions.getExtension('massgen.massgen-vscode');
		assert.ok(found);
		extension = found;
		await extension.activate();
	});

	after(() => own?.dispose());

	it('the installed extension points VS Code at l10n/, which holds the German bundle', () => {
		assert.equal((extension.packageJSON as { l10n?: string }).l10n, './l10n');
		const german = join(extension.extensionPath, 'l10n', 'bundle.l10n.de.json');
		assert.ok(existsSync(german), german);
		const bundle = JSON.parse(readFileSync(german, 'utf8')) as Record<string, string>;
		assert.equal(bundle['MassGen: Set API Key'], 'MassGen: API-Schlüssel festlegen');
	});

	it('in an English window no bundle is loaded and vscode.l10n.t formats the message itself', () => {
		assert.match(vscode.env.language, /^en/);
		assert.equal(vscode.l10n.bundle, undefined);
		assert.equal(vscode.l10n.t('MassGen: Set API Key'), 'MassGen: Set API Key');
		assert.equal(vscode.l10n.t('MassGen: Run {0}', 'r-1'), 'MassGen: Run r-1');
		assert.equal(vscode.l10n.t('{0} of {1} agents', 2, 3), '2 of 3 agents');
	});

	it('the panel’s snapshot carries the whole strings table, from vscode.l10n.t', async () => {
		own = await openOwnPanel(extension, 'MassGen l10n test');
		const snapshot = own.posted.find(
			(message): message is Extract<HostMessage, { type: 'snapshot' }> => message.type === 'snapshot',
		);
		assert.ok(snapshot);
		assert.deepEqual(Object.keys(snapshot.strings).sort(), [...webviewStringKeys].sort());
		assert.deepEqual(snapshot.strings, webviewStrings(englishTexts));
	});
});
