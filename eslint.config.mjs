// ESLint: typescript-eslint's recommended rules plus those of the VS Code extension samples.
// Formatting is Prettier's job (`npm run format:check`), not ESLint's.
import tseslint from 'typescript-eslint';

export default tseslint.config(
	{ ignores: ['dist/**', 'out/**', 'node_modules/**', 'test-results/**'] },
	...tseslint.configs.recommended,
	{
		files: ['**/*.ts'],
		rules: {
			'@typescript-eslint/naming-convention': ['error', { selector: 'import', format: ['camelCase', 'PascalCase'] }],
			'@typescript-eslint/no-unused-vars': [
				'error',
				{ argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
			],
			// Closures may read a `let` assigned later (objects that refer to each other at activation).
			'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
			curly: ['error', 'multi-line'],
			eqeqeq: 'error',
			'no-throw-literal': 'error',
		},
	},
);
