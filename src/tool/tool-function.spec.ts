import { endCallFunctionDefinition, parametersSchema, toFunctionDefinition } from './tool-function';

describe('toFunctionDefinition', () => {
  it('maps every parameter type to its JSON Schema', () => {
    expect(
      toFunctionDefinition({
        tool_name: 'book_table',
        tool_description: 'Books a table.',
        tool_parameters: [
          {
            name: 'guest_name',
            type: 'string',
            description: 'Name for the booking',
            required: true,
          },
          { name: 'party_size', type: 'number', required: true },
          { name: 'high_chair', type: 'boolean', required: false },
          { name: 'preferences', type: 'object', description: 'Free-form wishes', required: false },
          { name: 'allergies', type: 'array', required: true },
          { name: 'area', type: 'string', required: false, enum: ['inside', 'terrace'] },
        ],
      }),
    ).toStrictEqual({
      type: 'function',
      function: {
        name: 'book_table',
        description: 'Books a table.',
        parameters: {
          type: 'object',
          properties: {
            guest_name: { type: 'string', description: 'Name for the booking' },
            party_size: { type: 'number' },
            high_chair: { type: 'boolean' },
            preferences: { type: 'object', description: 'Free-form wishes' },
            allergies: { type: 'array', items: {} },
            area: { type: 'string', enum: ['inside', 'terrace'] },
          },
          required: ['guest_name', 'party_size', 'allergies'],
        },
      },
    });
  });

  it.each([
    ['string', { type: 'string' }],
    ['number', { type: 'number' }],
    ['boolean', { type: 'boolean' }],
    ['object', { type: 'object' }],
    ['array', { type: 'array', items: {} }],
  ] as const)('maps a %s parameter', (type, schema) => {
    expect(parametersSchema([{ name: 'p', type, required: true }])).toStrictEqual({
      type: 'object',
      properties: { p: schema },
      required: ['p'],
    });
  });

  it('gives a tool without parameters an empty object schema', () => {
    expect(parametersSchema([])).toStrictEqual({ type: 'object', properties: {}, required: [] });
  });

  it('treats a parameter without `required` as required (the default)', () => {
    // Outside the type on purpose: the schema must not depend on `required` being filled in.
    const stored = [{ name: 'p', type: 'string' }] as unknown as Parameters<
      typeof parametersSchema
    >[0];
    expect(parametersSchema(stored).required).toEqual(['p']);
  });

  it('does not share the enum array with the stored parameter', () => {
    const values = ['a', 'b'];
    const schema = parametersSchema([{ name: 'p', type: 'string', required: true, enum: values }]);
    expect(schema.properties.p.enum).toEqual(values);
    expect(schema.properties.p.enum).not.toBe(values);
  });
});

describe('endCallFunctionDefinition', () => {
  it('builds the description from the trigger phrase and takes no arguments', () => {
    expect(endCallFunctionDefinition('goodbye')).toStrictEqual({
      type: 'function',
      function: {
        name: 'end_call',
        description:
          'Ends the current call. Call this when the caller says "goodbye" or something with the same meaning, or otherwise clearly wants to end the call. Do not call it for any other reason.',
        parameters: { type: 'object', properties: {}, required: [] },
      },
    });
  });

  it('still describes itself without a phrase', () => {
    expect(endCallFunctionDefinition(null).function.description).toBe(
      'Ends the current call. Call this when the caller clearly wants to end the call. Do not call it for any other reason.',
    );
  });
});
