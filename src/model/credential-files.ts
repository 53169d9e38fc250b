import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

/**
 * Credentials the cloud SDKs' own tools leave in files, found where those tools put them: gcloud's
 * application-default credentials, the AWS shared credentials file's profile. Named in
 * `bosun models` and model.select by path and profile, never their content.
 */
export interface FileCredentials {
  /** What the person reads: which file (and profile). */
  source: string;
}

const home = (env: NodeJS.ProcessEnv) => env.HOME || homedir();

/**
 * gcloud's file (`gcloud auth application-default login`), which google-auth-library reads on
 * its own when GOOGLE_APPLICATION_CREDENTIALS is unset: in CLOUDSDK_CONFIG, else ~/.config/gcloud
 * (%APPDATA%\gcloud on Windows).
 */
export function gcloudCredentials(env: NodeJS.ProcessEnv): FileCredentials | undefined {
  const dir =
    env.CLOUDSDK_CONFIG?.trim() ||
    (process.platform === "win32" && env.APPDATA ? join(env.APPDATA, "gcloud") : join(home(env), ".config", "gcloud"));
  const file = join(dir, "application_default_credentials.json");
  return existsSync(file) ? { source: `gcloud application-default credentials (${file})` } : undefined;
}

export interface AwsProfileKeys {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

/** The AWS profile in use: AWS_PROFILE, else `default`; and the shared credentials file: AWS_SHARED_CREDENTIALS_FILE, else ~/.aws/credentials. */
function awsProfileWhere(env: NodeJS.ProcessEnv): { profile: string; file: string } {
  return {
    profile: env.AWS_PROFILE?.trim() || "default",
    file: env.AWS_SHARED_CREDENTIALS_FILE?.trim() || join(home(env), ".aws", "credentials"),
  };
}

/**
 * A profile's static keys from the shared credentials file (INI: `[name]`, `key = value`). A
 * profile that signs in some other way (SSO, a role to assume, a process) holds no keys here and is
 * not a source bosun can use: the AI SDK's Bedrock provider needs @aws-sdk/credential-providers for those.
 */
export function awsProfileKeys(env: NodeJS.ProcessEnv): (AwsProfileKeys & FileCredentials) | undefined {
  const { profile, file } = awsProfileWhere(env);
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
  const values = iniSection(text, profile);
  const accessKeyId = values.aws_access_key_id;
  const secretAccessKey = values.aws_secret_access_key;
  if (!accessKeyId || !secretAccessKey) return undefined;
  return {
    accessKeyId,
    secretAccessKey,
    ...(values.aws_session_token ? { sessionToken: values.aws_session_token } : {}),
    source: `AWS profile ${profile} in ${file}`,
  };
}

/**
 * The region the AWS tools would use when AWS_REGION (which the Bedrock SDK reads itself) is
 * unset: AWS_DEFAULT_REGION, else the profile's `region` in the config file (AWS_CONFIG_FILE, else
 * ~/.aws/config; a section `[profile <name>]`, or `[default]`). With where it came from.
 */
export function awsFallbackRegion(env: NodeJS.ProcessEnv): { region: string; source: string } | undefined {
  const fromVariable = env.AWS_DEFAULT_REGION?.trim();
  if (fromVariable) return { region: fromVariable, source: "AWS_DEFAULT_REGION" };
  const { profile } = awsProfileWhere(env);
  const file = env.AWS_CONFIG_FILE?.trim() || join(home(env), ".aws", "config");
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
  const region = iniSection(text, profile === "default" ? "default" : `profile ${profile}`).region;
  // Shaped like a region, or not used: it names the host requests go to.
  return region && /^[a-z0-9][a-z0-9-]*$/.test(region)
    ? { region, source: `AWS profile ${profile} in ${file}` }
    : undefined;
}

/** The keys of one `[section]` of an INI file; comments (# ;) and other sections skipped. */
export function iniSection(text: string, section: string): Record<string, string> {
  const values: Record<string, string> = {};
  let inside = false;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#") || line.startsWith(";")) continue;
    const header = /^\[\s*(.+?)\s*\]$/.exec(line);
    if (header) {
      inside = header[1] === section;
      continue;
    }
    if (!inside) continue;
    const eq = line.indexOf("=");
    if (eq > 0) values[line.slice(0, eq).trim().toLowerCase()] = line.slice(eq + 1).trim();
  }
  return values;
}
