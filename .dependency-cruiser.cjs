/**
 * The import graph's rules (docs/architecture.md §2), checked by `npm run check:deps` in `npm test`.
 * Type-only imports count: a loop or a layer breach through types is still a loop or a breach.
 */
module.exports = {
	// `vscode` resolves to its types (node_modules/@types/vscode) where installed, else stays `vscode`.
	forbidden: [
		{
			name: 'no-circular',
			comment: 'No import cycle: move the shared type to a module both sides import.',
			severity: 'error',
			from: { path: '^(src|webview)/' },
			to: { circular: true },
		},
		{
			name: 'coordination-one-way',
			comment:
				'The orchestrator drives the agents, which call the models: agents never import the orchestrator, and models (the scripted one too) and the protocol words they share never import either.',
			severity: 'error',
			from: { path: '^src/core/(agents|providers|workflow)/' },
			to: { path: '^src/core/orchestrator/' },
		},
		{
			name: 'models-below-agents',
			comment:
				'A model reads the protocol words from src/core/workflow, not from the prompts that write them.',
			severity: 'error',
			from: { path: '^src/core/(providers|workflow)/' },
			to: { path: '^src/core/agents/' },
		},
		{
			name: 'run-events-import-nothing',
			comment:
				'The run events and their words are the leaf every layer imports; they import nothing of ours.',
			severity: 'error',
			from: { path: '^src/contract/' },
			to: { path: '^(src|webview)/' },
		},
		{
			name: 'core-and-protocol-host-free',
			comment: 'The core and the protocol run in the CLI, the extension host and (protocol) the webview.',
			severity: 'error',
			from: { path: '^src/(core|protocol)/' },
			to: {
				path: '^(vscode$|src/(vscode|cli)/|src/extension[.]ts$|webview/)|(^|/)node_modules/@types/vscode/',
			},
		},
		{
			name: 'webview-only-protocol',
			comment: 'The panel bundle sees the host only through src/protocol (and its own npm packages).',
			severity: 'error',
			from: { path: '^webview/' },
			to: { pathNot: '^(webview|src/(protocol|contract))/|(^|/)node_modules/' },
		},
		{
			name: 'cli-not-editor',
			comment: 'The headless CLI never loads editor glue.',
			severity: 'error',
			from: { path: '^src/cli/' },
			to: { path: '^(vscode$|src/(vscode/|extension[.]ts$))|(^|/)node_modules/@types/vscode/' },
		},
		{
			name: 'editor-not-cli',
			comment: 'The extension shares the core with the CLI, not the CLI itself.',
			severity: 'error',
			from: { path: '^src/(vscode/|extension[.]ts$)' },
			to: { path: '^src/cli/' },
		},
	],
	options: {
		doNotFollow: { path: 'node_modules' },
		tsConfig: { fileName: 'tsconfig.json' },
		tsPreCompilationDeps: true,
	},
};
