import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { configFrom } from "../../test/support/config.js";
import { awsProfileKeys, iniSection } from "./credential-files.js";
import { findProvider } from "./providers.js";

const none = configFrom({});
const temp = () => mkdtempSync(join(tmpdir(), "bosun-env-"));

describe("what the cloud SDKs read on their own, named with its source", () => {
  it("bedrock: AWS_ENDPOINT_URL is the endpoint when AWS_ENDPOINT_URL_BEDROCK_RUNTIME is unset, and said so", () => {
    const keys = { AWS_ACCESS_KEY_ID: "AKIA", AWS_SECRET_ACCESS_KEY: "s", AWS_REGION: "us-east-1" };
    const general = findProvider("bedrock", none, { ...keys, AWS_ENDPOINT_URL: "http://127.0.0.1:4566" });
    assert.equal(general?.baseURL, "http://127.0.0.1:4566");
    assert.equal(general?.baseURLSource, "environment variable AWS_ENDPOINT_URL");
    const both = findProvider("bedrock", none, {
      ...keys,
      AWS_ENDPOINT_URL: "http://127.0.0.1:4566",
      AWS_ENDPOINT_URL_BEDROCK_RUNTIME: "http://127.0.0.1:5000",
    });
    assert.equal(both?.baseURLSource, "environment variable AWS_ENDPOINT_URL_BEDROCK_RUNTIME");
  });

  it("bedrock: a profile's keys in the shared credentials file are a source, named by profile and file", () => {
    const dir = temp();
    const file = join(dir, "credentials");
    writeFileSync(
      file,
      "[default]\naws_access_key_id = AKIADEFAULT\naws_secret_access_key = d\n\n# work account\n[work]\naws_access_key_id=AKIAWORK\naws_secret_access_key = w/secret\naws_session_token = tok\n",
    );
    const env = { AWS_SHARED_CREDENTIALS_FILE: file, AWS_PROFILE: "work", AWS_REGION: "eu-central-1" };
    const provider = findProvider("bedrock", none, env);
    assert.equal(provider?.credentials.source, `AWS profile work in ${file}`);
    assert.equal(provider?.problem, undefined);
    assert.deepEqual(awsProfileKeys(env), {
      accessKeyId: "AKIAWORK",
      secretAccessKey: "w/secret",
      sessionToken: "tok",
      source: `AWS profile work in ${file}`,
    });
    // The environment's key pair comes first, as in the AWS tools.
    const both = findProvider("bedrock", none, { ...env, AWS_ACCESS_KEY_ID: "A", AWS_SECRET_ACCESS_KEY: "B" });
    assert.equal(both?.credentials.source, "environment variables AWS_ACCESS_KEY_ID + AWS_SECRET_ACCESS_KEY");
    // A profile without static keys (SSO, a role) is no source bosun can use.
    assert.equal(awsProfileKeys({ ...env, AWS_PROFILE: "sso" }), undefined);
  });

  it("bedrock: ~/.aws/credentials' default profile when nothing names another; missing says how to add one", () => {
    const home = temp();
    const missing = findProvider("bedrock", none, { HOME: home });
    assert.match(missing?.credentials.source ?? "", /a profile's keys in ~\/\.aws\/credentials/);
    mkdirSync(join(home, ".aws"));
    writeFileSync(join(home, ".aws", "credentials"), "[default]\naws_access_key_id=A\naws_secret_access_key=B\n");
    const found = findProvider("bedrock", none, { HOME: home, AWS_REGION: "us-west-2" });
    assert.equal(found?.credentials.source, `AWS profile default in ${join(home, ".aws", "credentials")}`);
  });

  it("bedrock with credentials but no region is unusable before the run, saying what to set", () => {
    const provider = findProvider("bedrock", none, { AWS_ACCESS_KEY_ID: "A", AWS_SECRET_ACCESS_KEY: "B" });
    assert.equal(
      provider?.problem,
      'provider "bedrock" is bedrock but names no region: set AWS_REGION or provider.bedrock.region',
    );
    const configured = findProvider("bedrock", configFrom({ provider: { bedrock: { region: "us-east-1" } } }), {
      AWS_ACCESS_KEY_ID: "A",
      AWS_SECRET_ACCESS_KEY: "B",
    });
    assert.equal(configured?.problem, undefined);
  });

  it("bedrock: the region from AWS_DEFAULT_REGION, else the profile's in ~/.aws/config, handed to the SDK and named", () => {
    const home = temp();
    const keys = { HOME: home, AWS_ACCESS_KEY_ID: "A", AWS_SECRET_ACCESS_KEY: "B" };
    const fromVariable = findProvider("bedrock", none, { ...keys, AWS_DEFAULT_REGION: "ap-south-1" });
    assert.equal(fromVariable?.settings.region, "ap-south-1");
    assert.deepEqual(fromVariable?.envSettings, ["region=ap-south-1 (AWS_DEFAULT_REGION)"]);
    assert.equal(fromVariable?.problem, undefined);
    mkdirSync(join(home, ".aws"));
    const config = join(home, ".aws", "config");
    writeFileSync(
      config,
      "[default]\nregion = us-east-2\n[profile work]\nregion=eu-north-1\n[profile bad]\nregion=x.evil#\n",
    );
    assert.equal(findProvider("bedrock", none, keys)?.settings.region, "us-east-2");
    const work = findProvider("bedrock", none, { ...keys, AWS_PROFILE: "work" });
    assert.deepEqual(work?.envSettings, [`region=eu-north-1 (AWS profile work in ${config})`]);
    // AWS_REGION (the SDK's own) and config come first; a region not shaped like one is not used.
    assert.equal(findProvider("bedrock", none, { ...keys, AWS_REGION: "us-west-1" })?.settings.region, undefined);
    assert.match(findProvider("bedrock", none, { ...keys, AWS_PROFILE: "bad" })?.problem ?? "", /names no region/);
  });

  it("vertex with credentials but no project or location is unusable before the run, saying what to set", () => {
    const key = { GOOGLE_APPLICATION_CREDENTIALS: "/nonexistent/sa.json" };
    assert.equal(
      findProvider("vertex", none, key)?.problem,
      'provider "vertex" is vertex but names no project or location: set GOOGLE_VERTEX_PROJECT or provider.vertex.project, and GOOGLE_VERTEX_LOCATION or provider.vertex.location',
    );
    assert.equal(
      findProvider("vertex", none, { ...key, GOOGLE_VERTEX_PROJECT: "p", GOOGLE_VERTEX_LOCATION: "global" })?.problem,
      undefined,
    );
    // Express mode: the API key names the account.
    assert.equal(findProvider("vertex", none, { GOOGLE_VERTEX_API_KEY: "k" })?.problem, undefined);
  });

  it("vertex: gcloud's application-default credentials file is a source when GOOGLE_APPLICATION_CREDENTIALS is unset", () => {
    const home = temp();
    assert.match(
      findProvider("vertex", none, { HOME: home })?.credentials.source ?? "",
      /gcloud auth application-default login/,
    );
    mkdirSync(join(home, ".config", "gcloud"), { recursive: true });
    const file = join(home, ".config", "gcloud", "application_default_credentials.json");
    writeFileSync(
      file,
      JSON.stringify({ type: "authorized_user", client_id: "c", client_secret: "s", refresh_token: "r" }),
    );
    assert.equal(
      findProvider("vertex", none, { HOME: home })?.credentials.source,
      `gcloud application-default credentials (${file})`,
    );
    const elsewhere = temp();
    writeFileSync(join(elsewhere, "application_default_credentials.json"), "{}");
    assert.equal(
      findProvider("vertex", none, { HOME: home, CLOUDSDK_CONFIG: elsewhere })?.credentials.source,
      `gcloud application-default credentials (${join(elsewhere, "application_default_credentials.json")})`,
    );
  });

  it("vertex: the project, location, quota project, metadata host and a key file's own token endpoint are shown", () => {
    const dir = temp();
    const key = join(dir, "sa.json");
    writeFileSync(key, JSON.stringify({ type: "service_account", token_uri: "https://sts.example.test/token" }));
    const provider = findProvider("vertex", none, {
      GOOGLE_APPLICATION_CREDENTIALS: key,
      GOOGLE_VERTEX_PROJECT: "p1",
      GOOGLE_VERTEX_LOCATION: "europe-west4",
      GOOGLE_CLOUD_QUOTA_PROJECT: "billing-1",
      GCE_METADATA_HOST: "169.254.169.254",
    });
    assert.deepEqual(provider?.envSettings, [
      "GOOGLE_VERTEX_PROJECT=p1",
      "GOOGLE_VERTEX_LOCATION=europe-west4",
      "GOOGLE_CLOUD_QUOTA_PROJECT=billing-1",
      "GCE_METADATA_HOST=169.254.169.254",
      "token_uri=https://sts.example.test/token (GOOGLE_APPLICATION_CREDENTIALS's key file)",
    ]);
    // Google's own endpoint is the default: nothing to say.
    writeFileSync(key, JSON.stringify({ type: "service_account", token_uri: "https://oauth2.googleapis.com/token" }));
    assert.deepEqual(findProvider("vertex", none, { GOOGLE_APPLICATION_CREDENTIALS: key })?.envSettings, []);
  });

  it("an INI section's keys, comments and other sections left out", () => {
    const text = "; top\n[a]\nx = 1\n[ b ]\nX = 2\n# c\ny=3 = 4\n";
    assert.deepEqual(iniSection(text, "b"), { x: "2", y: "3 = 4" });
    assert.deepEqual(iniSection(text, "none"), {});
  });
});
