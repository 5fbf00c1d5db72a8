import { describe, expect, it } from 'vitest';
import { defineErrors, isStrandError, StrandError } from './define-errors.js';

const WIDGET_ERRORS = defineErrors('widget', {
  WIDGET_BROKEN: { meaning: 'The widget broke.', number: -32999 },
  WIDGET_MISSING: { meaning: 'No widget has that name.' },
  WIDGET_CONFIG_INVALID: { meaning: 'A widget option is out of range.', was: 'OLD_WIDGET_CONFIG' },
});

class WidgetError extends WIDGET_ERRORS.errorClass('WidgetError') {}

class WidgetWithFacts extends WIDGET_ERRORS.errorClass('WidgetWithFacts') {
  constructor(
    code: (typeof WIDGET_ERRORS.codes)[number],
    message: string,
    readonly widget: string,
  ) {
    super(code, message);
  }
  protected override jsonFields(): { widget: string } {
    return { widget: this.widget };
  }
}

const WidgetConfigError = WIDGET_ERRORS.codeClass('WIDGET_CONFIG_INVALID', 'WidgetConfigError');

describe('defineErrors', () => {
  it('lists the codes in declaration order and keeps each declaration', () => {
    expect(WIDGET_ERRORS.owner).toBe('widget');
    expect(WIDGET_ERRORS.codes).toEqual(['WIDGET_BROKEN', 'WIDGET_MISSING', 'WIDGET_CONFIG_INVALID']);
    expect(WIDGET_ERRORS.declarationOf('WIDGET_BROKEN')).toEqual({
      meaning: 'The widget broke.',
      number: -32999,
    });
    expect(WIDGET_ERRORS.declarationOf('WIDGET_CONFIG_INVALID').was).toBe('OLD_WIDGET_CONFIG');
    expect(Object.isFrozen(WIDGET_ERRORS.codes)).toBe(true);
  });

  it('tells its own codes from anything else', () => {
    expect(WIDGET_ERRORS.has('WIDGET_MISSING')).toBe(true);
    expect(WIDGET_ERRORS.has('SESSION_ID_INVALID')).toBe(false);
    expect(WIDGET_ERRORS.has(undefined)).toBe(false);
  });

  it('builds a class with the code, the name, the message and the cause', () => {
    const cause = new Error('disk');
    const error = new WidgetError('WIDGET_MISSING', 'no widget w', { cause });
    expect(error).toBeInstanceOf(WidgetError);
    expect(error).toBeInstanceOf(StrandError);
    expect(error).toBeInstanceOf(Error);
    expect(isStrandError(error)).toBe(true);
    expect(error.code).toBe('WIDGET_MISSING');
    expect(error.name).toBe('WidgetError');
    expect(error.message).toBe('no widget w');
    expect(error.cause).toBe(cause);
    expect(String(error)).toBe('WidgetError: no widget w');
  });

  it('leaves `cause` unset when none is given', () => {
    expect(Object.hasOwn(new WidgetError('WIDGET_BROKEN', 'x'), 'cause')).toBe(false);
  });

  it('shows name, code and message in JSON, plus only the facts a class adds', () => {
    const error = new WidgetWithFacts('WIDGET_BROKEN', 'broke', 'w1');
    expect(error.toJSON()).toEqual({
      name: 'WidgetWithFacts',
      code: 'WIDGET_BROKEN',
      message: 'broke',
      widget: 'w1',
    });
    expect(
      JSON.parse(JSON.stringify(new WidgetError('WIDGET_BROKEN', 'broke', { cause: 'secret' }))),
    ).toEqual({
      name: 'WidgetError',
      code: 'WIDGET_BROKEN',
      message: 'broke',
    });
  });

  it('builds a class for one code whose constructor takes only the message', () => {
    const error = new WidgetConfigError('limit must be positive');
    expect(error.code).toBe('WIDGET_CONFIG_INVALID');
    expect(error.name).toBe('WidgetConfigError');
    expect(error).toBeInstanceOf(WidgetConfigError);
    expect(error).not.toBeInstanceOf(WidgetError);
  });

  it('keeps classes of two packages apart', () => {
    const OTHER = defineErrors('other', { OTHER_FAILED: { meaning: 'It failed.' } });
    class OtherError extends OTHER.errorClass('OtherError') {}
    expect(new OtherError('OTHER_FAILED', 'x')).not.toBeInstanceOf(WidgetError);
    expect(isStrandError(new Error('plain'))).toBe(false);
  });

  it('refuses a code that is not UPPER_SNAKE_CASE and a code without a meaning', () => {
    expect(() => defineErrors('bad', { notACode: { meaning: 'x' } })).toThrow(/UPPER_SNAKE_CASE/);
    expect(() => defineErrors('bad', { BAD_EMPTY: { meaning: ' ' } })).toThrow(/no meaning/);
  });
});
