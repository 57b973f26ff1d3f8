/**
 * Linux: bubblewrap (`bwrap`, Debian package `bubblewrap`) driven directly, with the profile every
 * sandbox of ours shares (`sandboxProfile.ts`: namespaces, no capabilities, the system read-only,
 * the hidden folders under an empty tmpfs); then the scratch copy and the scratch home are bound
 * writable and the dependency folders read-only on top, their secret files covered (later mounts
 * shadow earlier ones, and bind sources are always host paths). The network is none unless allowed.
 */
import type { CommandSandbox, SandboxRequest } from './commandSandbox.js';
import { overlayArgv, type OverlayTools } from './overlayMount.js';
import { baseMounts, isolationArgs, maskArgs } from './sandboxProfile.js';

export function bubblewrapArgs(request: SandboxRequest, strict = true): string[] {
	const args = isolationArgs({ strict, network: request.network });
	// Inside the overlay's namespace we are its root: commands get the user's own ids back, as without one.
	if (request.overlay !== undefined) args.push(...userIds());
	args.push(...baseMounts(request.hiddenPaths, request.network));
	// Tool folders under the hidden $HOME come back before the writable copy, dependency folders after it.
	const inScratch = (target: string) =>
		target === request.scratchDir || target.startsWith(`${request.scratchDir}/`);
	const binds = request.readOnlyBinds;
	for (const bind of binds.filter((b) => !inScratch(b.target))) {
		args.push('--ro-bind', bind.source, bind.target);
	}
	args.push('--bind', request.scratchDir, request.scratchDir, '--bind', request.homeDir, request.homeDir);
	// Secret files inside a dependency folder are covered after it is bound (`maskArgs`).
	for (const bind of binds.filter((b) => inScratch(b.target))) {
		args.push('--ro-bind', bind.source, bind.target, ...maskArgs(bind.masks ?? []));
	}
	args.push('--chdir', request.cwd);
	return args;
}

/** `overlay`: the tools of a copy-on-write scratch, where `detectOverlay` found that it works (strict only). */
export function bubblewrapSandbox(bwrapPath: string, strict = true, overlay?: OverlayTools): CommandSandbox {
	return {
		mode: 'bubblewrap',
		tempDir: '/tmp',
		...(overlay && strict ? { overlay } : {}),
		wrap: (argv, request) => {
			const inner = [bwrapPath, ...bubblewrapArgs(request, strict), '--', ...argv];
			if (request.overlay === undefined) return inner;
			if (!overlay || !strict) throw new Error('this sandbox cannot mount an overlay scratch');
			return overlayArgv(overlay, request.overlay, inner);
		},
	};
}

export function userIds(): string[] {
	const uid = process.getuid?.() ?? 0;
	const gid = process.getgid?.() ?? 0;
	return ['--uid', String(uid), '--gid', String(gid)];
}
