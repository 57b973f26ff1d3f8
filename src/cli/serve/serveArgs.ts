/** `massgen serve`'s options, as `args.ts` parses them (docs/cli.md). */
export interface ServeArgs {
	readonly kind: 'serve';
	readonly host: string;
	/** 0: any free port (the bound one is printed). */
	readonly port: number;
	readonly config?: string;
	readonly workspace: string;
	readonly token?: string;
	/** How long a client may take to send a whole request (headers and body). */
	readonly requestTimeoutSeconds: number;
}
