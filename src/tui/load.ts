/**
 * Ink, React and the app for an interactive session at a real terminal: the entry point of the
 * TUI bundle (scripts/bundle-tui.ts), or plain modules when bosun runs from source.
 */
export async function loadInteractiveUi() {
  const [ink, react, app] = await Promise.all([import("ink"), import("react"), import("./app.js")]);
  return { render: ink.render, createElement: react.createElement, App: app.App };
}
