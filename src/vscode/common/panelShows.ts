/** One surface of the panel as `panelShows` reads it (`SurfaceHost`). */
interface ShownSurface {
	readonly visible: boolean;
	readonly focused: boolean;
	readonly shownRunId: string | undefined;
}

/**
 * Whether a surface of the panel (the side bar view or a run's editor tab) shows `runId` and is
 * `visible` (on screen) or `focused` (on screen with the keyboard): a run no such surface shows
 * is in the background, and what it needs from the user is said by a notification.
 */
export function panelShows(
	panel: { readonly view: ShownSurface; readonly editors: readonly ShownSurface[] },
	runId: string,
	how: 'visible' | 'focused',
): boolean {
	return [panel.view, ...panel.editors].some((surface) => surface[how] && surface.shownRunId === runId);
}
