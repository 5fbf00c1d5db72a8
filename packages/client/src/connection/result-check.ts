import { describeIssues, METHODS, type MethodName, type ResultOf } from '@strand/protocol';
import { StrandClientError, type StrandClientErrorCode } from '../errors.js';

/** The follow and page results have codes of their own, which their callers already name. */
const CODE_BY_METHOD: Partial<Record<MethodName, StrandClientErrorCode>> = {
  'session.follow': 'CLIENT_SNAPSHOT_INVALID',
  'session.page': 'CLIENT_PAGE_INVALID',
};

export type ResultCheck<M extends MethodName> =
  | { readonly kind: 'valid'; readonly result: ResultOf<M> }
  | { readonly kind: 'invalid'; readonly error: StrandClientError };

/**
 * Checks a result from the wire with its method's protocol schema. The result returned is the
 * value received (checked, not copied or stripped), so a newer host's extra fields stay.
 */
export function checkResult<M extends MethodName>(method: M, value: unknown): ResultCheck<M> {
  const parsed = METHODS[method].result.safeParse(value);
  if (parsed.success) return { kind: 'valid', result: value as ResultOf<M> };
  const code = CODE_BY_METHOD[method] ?? 'CLIENT_RESULT_INVALID';
  const why = describeIssues(parsed.error, '(result)');
  return { kind: 'invalid', error: new StrandClientError(code, `${method} result: ${why}`) };
}
