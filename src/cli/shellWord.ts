/**
 * A path or name as one POSIX shell word, for the commands the CLI suggests (`cd DIR && git apply
 * FILE`): a folder's name is whoever made the archive or clone's choice, and a hint is pasted into
 * shells, by users and by the agents of an MCP or HTTP client. As is when it holds only characters
 * no shell reads specially, else single-quoted.
 */
export function shellWord(text: string): string {
	return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}
