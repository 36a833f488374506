import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JsonObject, JsonValue } from '../protocol/json-value';
import { formDefinitionSchema, type FormField, type StoredForm } from './form-definition';
import { validateFormPayload } from './validate-form-payload';
import { checkFormAction } from './check-form-action';

const fieldArbitrary = (id: string): fc.Arbitrary<FormField> =>
  fc.oneof(
    fc.record({
      id: fc.constant(id),
      label: fc.constant(`Label ${id}`),
      type: fc.constant('text' as const),
      maxLength: fc.integer({ min: 1, max: 40 }),
    }),
    fc
      .record({
        min: fc.integer({ min: -100, max: 100 }),
        span: fc.integer({ min: 1, max: 500 }),
        integer: fc.boolean(),
        unit: fc.constantFrom('mm', 'px', 'm/s'),
      })
      .map(({ min, span, integer, unit }) => ({
        id,
        label: `Label ${id}`,
        type: 'number' as const,
        min,
        max: min + span,
        integer,
        unit,
      })),
    fc
      .uniqueArray(fc.constantFrom('red', 'green', 'blue', 'warm', 'cold'), { minLength: 2, maxLength: 4 })
      .map((options) => ({ id, label: `Label ${id}`, type: 'choice' as const, options })),
    fc.constant({ id, label: `Label ${id}`, type: 'toggle' as const }),
    fc.constant({ id, label: `Label ${id}`, type: 'color' as const }),
    fc
      .record({
        min: fc.integer({ min: 0, max: 10 }),
        steps: fc.integer({ min: 1, max: 20 }),
        step: fc.constantFrom(1, 0.5, 5),
      })
      .map(({ min, steps, step }) => ({
        id,
        label: `Label ${id}`,
        type: 'slider' as const,
        min,
        max: min + steps * step,
        step,
      })),
  );

const formArbitrary: fc.Arbitrary<StoredForm> = fc
  .uniqueArray(fc.stringMatching(/^[a-z][a-z0-9_]{0,6}$/), { minLength: 1, maxLength: 6 })
  .chain((ids) => fc.tuple(...ids.map(fieldArbitrary)))
  .map((fields) => ({
    type: 'form' as const,
    artifactId: 'form-1',
    version: 1,
    fields,
    actions: [{ id: 'submit', label: 'Submit' }],
  }));

function validValue(field: FormField): fc.Arbitrary<JsonValue> {
  switch (field.type) {
    case 'text':
      return fc.string({ minLength: 1, maxLength: field.maxLength ?? 40 }).filter((text) => text.trim() !== '');
    case 'number':
      return field.integer
        ? fc.integer({ min: field.min ?? -1e6, max: field.max ?? 1e6 })
        : fc.double({ min: field.min ?? -1e6, max: field.max ?? 1e6, noNaN: true });
    case 'choice':
      return fc.constantFrom(...field.options);
    case 'toggle':
      return fc.boolean();
    case 'color':
      return fc.integer({ min: 0, max: 0xffffff }).map((value) => `#${value.toString(16).padStart(6, '0')}`);
    case 'slider':
      return fc
        .integer({ min: 0, max: Math.round((field.max - field.min) / (field.step ?? 1)) })
        .map((index) => field.min + index * (field.step ?? 1));
  }
}

const validCase = formArbitrary.chain((form) =>
  fc.tuple(...form.fields.map(validValue)).map((values) => ({
    form,
    payload: Object.fromEntries(form.fields.map((field, index) => [field.id, values[index]])),
  })),
);

/** A value of the wrong kind or outside its bounds for one field. */
function wrongValue(field: FormField): fc.Arbitrary<JsonValue> {
  const wrongType = fc.oneof(fc.constant([1, 2] as JsonValue), fc.constant({ nested: true } as JsonValue));
  switch (field.type) {
    case 'text':
      return fc.oneof(
        wrongType,
        fc.integer(),
        fc.constant('x'.repeat((field.maxLength ?? 40) + 1)),
        fc.constant('   '),
      );
    case 'number':
      return fc.oneof(
        wrongType,
        fc.constant('12'),
        fc.constant(true),
        fc.integer({ min: 1, max: 1000 }).map((over) => (field.max ?? 0) + over),
        fc.integer({ min: 1, max: 1000 }).map((under) => (field.min ?? 0) - under),
        ...(field.integer ? [fc.constant((field.min ?? 0) + 0.5)] : []),
      );
    case 'choice':
      return fc.oneof(wrongType, fc.constant('purple'), fc.integer());
    case 'toggle':
      return fc.oneof(wrongType, fc.constant('true'), fc.constant(1));
    case 'color':
      return fc.oneof(wrongType, fc.constant('red'), fc.constant('#12345'), fc.constant('#gg0000'), fc.integer());
    case 'slider':
      return fc.oneof(
        wrongType,
        fc.constant('5'),
        fc.constant(field.max + (field.step ?? 1)),
        fc.constant(field.min - 1),
        fc.constant(field.min + (field.step ?? 1) / 3),
      );
  }
}

type Malformed = { form: StoredForm; payload: unknown; path: string };

const malformedCase: fc.Arbitrary<Malformed> = validCase.chain(({ form, payload }) =>
  fc.oneof(
    fc.integer({ min: 0, max: form.fields.length - 1 }).chain((index) =>
      wrongValue(form.fields[index]).map((value) => ({
        form,
        payload: { ...payload, [form.fields[index].id]: value },
        path: `/payload/${form.fields[index].id}`,
      })),
    ),
    fc.integer({ min: 0, max: form.fields.length - 1 }).map((index) => {
      const { [form.fields[index].id]: _dropped, ...rest } = payload;
      return { form, payload: rest, path: `/payload/${form.fields[index].id}` };
    }),
    fc.constantFrom('extra', 'a/b', 'x~y', 'onSubmit').map((key) => ({
      form,
      payload: { ...payload, [key]: 1 },
      path: `/payload/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`,
    })),
    fc
      .constantFrom<unknown>(null, 'text', 42, [payload], undefined)
      .map((value) => ({ form, payload: value, path: '/payload' })),
  ),
);

describe('validateFormPayload', () => {
  it('refuses 1,000 generated malformed payloads, each with the path of what is wrong', () => {
    let refused = 0;
    fc.assert(
      fc.property(malformedCase, ({ form, payload, path }) => {
        const checked = validateFormPayload(form, payload);
        const withPath = !checked.ok && checked.problems.some((problem) => problem.path === path);
        if (withPath) refused += 1;
        return withPath;
      }),
      { numRuns: 1000, seed: 18 },
    );
    console.log(`form payloads: ${refused} of 1000 malformed refused with their path`);
    expect(refused).toBe(1000);
  });

  it('accepts generated valid payloads and returns exactly their values', () => {
    fc.assert(
      fc.property(validCase, ({ form, payload }) => {
        const checked = validateFormPayload(form, payload);
        expect(checked).toEqual({ ok: true, values: payload });
      }),
      { numRuns: 300, seed: 18 },
    );
  });

  it('generated forms are forms the model may define', () => {
    fc.assert(
      fc.property(formArbitrary, (form) => {
        expect(formDefinitionSchema.safeParse({ fields: form.fields, actions: form.actions }).success).toBe(true);
      }),
      { numRuns: 100, seed: 18 },
    );
  });

  it('says what is wrong in words the user reads, with the unit', () => {
    const form: StoredForm = {
      type: 'form',
      artifactId: 'form-1',
      version: 1,
      fields: [
        { id: 'width', label: 'Width', type: 'number', unit: 'mm', min: 10, max: 200 },
        { id: 'note', label: 'Note', type: 'text', required: false },
      ],
      actions: [{ id: 'submit', label: 'Submit' }],
    };
    expect(validateFormPayload(form, { width: 500 })).toEqual({
      ok: false,
      problems: [{ path: '/payload/width', message: 'must be at most 200 mm' }],
    });
    expect(validateFormPayload(form, { width: 120, note: '' })).toEqual({ ok: true, values: { width: 120 } });
  });
});

describe('checkFormAction', () => {
  const form: StoredForm = {
    type: 'form',
    artifactId: 'form-1',
    version: 1,
    fields: [{ id: 'on', label: 'On', type: 'toggle' }],
    actions: [
      { id: 'submit', label: 'Submit' },
      { id: 'skip', label: 'Skip' },
    ],
  };

  it('checks the form, its version and its action before the values, every problem at once', () => {
    const checked = checkFormAction(form, { artifactId: 'other', version: 2, actionId: 'deleteAll', payload: {} });
    expect(checked.ok).toBe(false);
    if (checked.ok) return;
    expect(checked.problems.map((problem) => problem.path)).toEqual([
      '/artifactId',
      '/version',
      '/actionId',
      '/payload/on',
    ]);
  });

  it('gives the action and the values of an accepted submission', () => {
    const values: JsonObject = { on: true };
    expect(checkFormAction(form, { artifactId: 'form-1', version: 1, actionId: 'skip', payload: values })).toEqual({
      ok: true,
      actionId: 'skip',
      values,
    });
  });
});
