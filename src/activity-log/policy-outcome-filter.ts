import type { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import type { PolicyOutcome } from '../inbound-policy/policy.types';

/**
 * `GET /logs?policy_outcome=`: lookups whose entry carries that inbound policy decision
 * (`response_data.policy.outcome`). Only lookups carry one: the log type's index bounds the rows
 * read. No per-day counter keys it, so its total is counted entry by entry.
 */
export function wherePolicyOutcome<T extends ObjectLiteral>(
  qb: SelectQueryBuilder<T>,
  outcome: PolicyOutcome,
): void {
  const path = "l.response_data, '$.policy.outcome'";
  const value =
    qb.connection.options.type === 'mysql'
      ? `JSON_UNQUOTE(JSON_EXTRACT(${path}))`
      : `json_extract(${path})`;
  qb.andWhere("l.log_type = 'inbound_context_lookup'").andWhere(`${value} = :policyOutcome`, {
    policyOutcome: outcome,
  });
}
