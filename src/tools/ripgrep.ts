/**
 * Where ripgrep is: `BOSUN_RG` when set (another build, or a test's missing one), else the binary
 * the @vscode/ripgrep package ships. Shared by the grep tool and `bosun doctor`.
 */
export async function ripgrepPath(): Promise<string> {
  if (process.env.BOSUN_RG) return process.env.BOSUN_RG;
  return (await import("@vscode/ripgrep")).rgPath;
}
