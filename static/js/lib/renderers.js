/* The table log's renderers by event kind. A module that shows its own kinds in the log
 * (clock.js, moves.js, deck.js, map.js) sets `renderers[kind] = (ev, api) => node or null`;
 * table.js imports those modules before it applies the page's events, and calls the renderer
 * with its helpers (`api`: h, entryShell, config, me, members). */
export const renderers = {};
