/**
 * Where a run's secret values come from, besides the API keys `buildAgents` resolves and the MCP
 * values `mcpServerSpec.ts` expands: the environment and `.env` (values of secret-looking
 * names), VS Code's secret storage (every value) and credentials inside any URL.
 */

/** Names whose values are treated as secrets (`GH_PAT`, `DATABASE_PASSWORD`, `AWS_SESSION_TOKEN`…). */
const secretName =
	/KEY|TOKEN|SECRET|PASSW(OR)?D|CREDENTIAL|AUTH|COOKIE|SESSION|PRIVATE|(^|_)PAT($|_)|(^|_)DSN$/i;

/** Environment values shorter than this are flags (`1`, `true`), not secrets. */
const minEnvSecretChars = 8;

/** `scheme://userinfo@`, capturing the userinfo. */
const urlUserinfo = /\b[a-z][a-z0-9+.-]*:\/\/([^\s/?#@"'`<>]+)@/gi;

/** The userinfo of every URL in `text`, whole and its password part, raw and percent-decoded. */
export function urlCredentials(text: string | undefined): string[] {
	if (text === undefined || !text.includes('://')) return [];
	const found: string[] = [];
	for (const match of text.matchAll(urlUserinfo)) {
		const userinfo = match[1]!;
		const colon = userinfo.indexOf(':');
		for (const part of colon === -1 ? [userinfo] : [userinfo, userinfo.slice(colon + 1)]) {
			found.push(part, safeDecode(part));
		}
	}
	return found;
}

/**
 * Secrets in an environment-like record: values of secret-looking names (not paths, which
 * name a place rather than hold a credential) and credentials in any URL value.
 */
export function environmentSecrets(env: Readonly<Record<string, string | undefined>>): string[] {
	const found: string[] = [];
	for (const [name, raw] of Object.entries(env)) {
		const value = raw?.trim();
		if (!value) continue;
		found.push(...urlCredentials(value));
		if (secretName.test(name) && value.length >= minEnvSecretChars && !looksLikePath(value)) {
			found.push(value);
		}
	}
	return found;
}

/** Whether a header or environment entry's name says its value is a credential. */
export function isSecretName(name: string): boolean {
	return secretName.test(name);
}

function looksLikePath(value: string): boolean {
	return /^(\/|~\/|\.{1,2}\/|[a-zA-Z]:[\\/])/.test(value) && !value.includes('://') && !/\s/.test(value);
}

function safeDecode(text: string): string {
	try {
		return decodeURIComponent(text);
	} catch {
		return text;
	}
}
