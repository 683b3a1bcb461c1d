import { InputError } from '../../../shared/errors/input-error.js';
import type { FamilyId } from '../../../shared/route-table/route-table.js';
import { awsCredentialsFromEnv, awsSecretValues, sigV4Fetch } from './aws-sigv4.js';
import type { SecretValue } from './redact.js';

/**
 * How a Bedrock call is authorized when no Bedrock API key is given: SigV4 from AWS_ACCESS_KEY_ID /
 * AWS_SECRET_ACCESS_KEY (/ AWS_SESSION_TOKEN) and AWS_REGION (or the region in the host). Returns
 * the signing fetch and the values redaction must scrub; undefined when a key is used or the
 * family is not Bedrock. With neither, the user is told what to set (exit 2).
 */
export function bedrockSigning(
  family: FamilyId,
  apiKey: string | undefined,
  host: string,
  env: NodeJS.ProcessEnv = process.env,
): { fetch: typeof fetch; secrets: SecretValue[] } | undefined {
  if (family !== 'bedrock-converse' || apiKey) return undefined;
  const creds = awsCredentialsFromEnv(env, host);
  if (!creds) {
    throw new InputError(
      '--api-key-env',
      '',
      'Bedrock needs credentials: AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (and AWS_SESSION_TOKEN for temporary ones) with AWS_REGION, or a Bedrock API key in AWS_BEARER_TOKEN_BEDROCK',
      'export them, or name the key variable with --api-key-env',
    );
  }
  return { fetch: sigV4Fetch(creds), secrets: awsSecretValues(creds) };
}
