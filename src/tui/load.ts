/**
 * Loads Ink, React and the app for an interactive session at a real terminal.
 *
 * Ink decides once, when its module is evaluated, whether it runs "in CI" (`CI` or
 * `CONTINUOUS_INTEGRATION` set): there it draws nothing until the app exits, which at a real
 * terminal is a blank screen. bosun only loads Ink when stdin and stdout are terminals, so that
 * guess is wrong here: the variables are hidden while Ink loads and put back before anything
 * else runs, so commands the session starts still see them.
 */
export async function loadInteractiveUi() {
  const hidden = ["CI", "CONTINUOUS_INTEGRATION"].flatMap((key) => {
    const value = process.env[key];
    if (value === undefined) return [];
    delete process.env[key];
    return [[key, value] as const];
  });
  try {
    const [ink, react, app] = await Promise.all([import("ink"), import("react"), import("./app.js")]);
    return { render: ink.render, createElement: react.createElement, App: app.App };
  } finally {
    for (const [key, value] of hidden) process.env[key] = value;
  }
}
