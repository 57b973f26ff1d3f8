// ESLint: typescript-eslint's recommended rules plus those of the VS Code extension samples.
// Formatting is Prettier's job (`npm run format:check`), not ESLint's.
import tseslint from 'typescript-eslint';

export default tseslint.config(
	{ ignores: ['dist/**', 'out/**', 'node_modules/**', 'test-results/**'] },
	...tseslint.configs.recommended,
	{
		files: ['**/*.ts'],
		rules: {
			'@typescript-eslint/naming-convention': [
				'error',
				{ selector: 'import', format: ['camelCase', 'PascalCase'] },
			],
			'@typescript-eslint/no-unused-vars': [
				'error',
				{
					argsIgnorePattern: '^_',
					varsIgnorePattern: '^_',
					caughtErrorsIgnorePattern: '^_',
					destructuredArrayIgnorePattern: '^_',
				},
			],
			// Closures may read a `let` assigned later (test wiring of objects that refer to each other).
			'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
			curly: ['error', 'multi-line'],
			eqeqeq: 'error',
			'no-throw-literal': 'error',
		},
	},
	{
		// One import style in the shipped code: a relative import names the compiled `.js` file, as Node's ESM resolution wants.
		files: ['src/**/*.ts', 'webview/**/*.ts'],
		rules: {
			'no-restricted-syntax': [
				'error',
				...['ImportDeclaration', 'ExportNamedDeclaration', 'ExportAllDeclaration', 'ImportExpression'].map(
					(node) => ({
						selector: `${node} > Literal.source[value=/^[.]{1,2}[/](?!.*[.](js|json|css)$)/]`,
						message: 'A relative import ends in .js (the compiled file name).',
					}),
				),
			],
		},
	},
);
