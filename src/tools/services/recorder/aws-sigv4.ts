import { Sha256 } from '@aws-crypto/sha256-js';
import { SignatureV4 } from '@smithy/signature-v4';

/** AWS credentials as the SDKs read them from the environment. */
export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
  region: string;
}

/** The usual variables; undefined when the key pair or the region is missing. */
export function awsCredentialsFromEnv(env: NodeJS.ProcessEnv = process.env, host = ''): AwsCredentials | undefined {
  const accessKeyId = env.AWS_ACCESS_KEY_ID;
  const secretAccessKey = env.AWS_SECRET_ACCESS_KEY;
  // bedrock-runtime.<region>.amazonaws.com names its region; the variable wins when set.
  const region =
    env.AWS_REGION ??
    env.AWS_DEFAULT_REGION ??
    /bedrock-runtime(?:-fips)?\.([a-z0-9-]+)\.amazonaws\.com$/.exec(host)?.[1];
  if (!accessKeyId || !secretAccessKey || !region) return undefined;
  return {
    accessKeyId,
    secretAccessKey,
    region,
    ...(env.AWS_SESSION_TOKEN ? { sessionToken: env.AWS_SESSION_TOKEN } : {}),
  };
}

/** Secret values of the credentials, for redaction (the access key id is not secret, but is personal). */
export function awsSecretValues(creds: AwsCredentials): { name: string; value: string }[] {
  return [
    { name: 'AWS_SECRET_ACCESS_KEY', value: creds.secretAccessKey },
    { name: 'AWS_ACCESS_KEY_ID', value: creds.accessKeyId },
    ...(creds.sessionToken ? [{ name: 'AWS_SESSION_TOKEN', value: creds.sessionToken }] : []),
  ];
}

/**
 * A fetch that SigV4-signs each request for Bedrock (signing name `bedrock`) with the maintained
 * AWS signer, then forwards it. Signing happens below the recorder's capture, so the fixture holds
 * the request as the harness built it and no signature or token ever reaches it.
 */
export function sigV4Fetch(
  creds: AwsCredentials,
  inner: typeof fetch = (i, n) => globalThis.fetch(i, n),
  now?: () => Date,
): typeof fetch {
  const signer = new SignatureV4({
    service: 'bedrock',
    region: creds.region,
    sha256: Sha256,
    credentials: {
      accessKeyId: creds.accessKeyId,
      secretAccessKey: creds.secretAccessKey,
      ...(creds.sessionToken ? { sessionToken: creds.sessionToken } : {}),
    },
  });
  return async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    const body = request.body === null ? undefined : await request.text();
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => {
      headers[name] = value;
    });
    headers.host = url.host;
    const signed = await signer.sign(
      {
        method: request.method,
        protocol: url.protocol,
        hostname: url.hostname,
        ...(url.port ? { port: Number(url.port) } : {}),
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        headers,
        ...(body !== undefined ? { body } : {}),
      },
      now ? { signingDate: now() } : {},
    );
    const out = new Headers();
    for (const [name, value] of Object.entries(signed.headers)) if (name.toLowerCase() !== 'host') out.set(name, value);
    return inner(request.url, {
      method: request.method,
      headers: out,
      ...(body !== undefined ? { body } : {}),
      ...(init?.redirect ? { redirect: init.redirect } : {}),
      signal: init?.signal ?? request.signal,
    });
  };
}
