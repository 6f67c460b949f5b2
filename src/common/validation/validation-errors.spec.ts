import { plainToInstance, Type } from 'class-transformer';
import { IsInt, IsString, ValidateNested, validate } from 'class-validator';
import { VALIDATOR_OPTIONS } from './validate';
import { flattenValidationErrors } from './validation-errors';

class Leaf {
  @IsString()
  voice_id: string;
}

class Item {
  @IsInt()
  n: number;
}

class Root {
  @ValidateNested()
  @Type(() => Leaf)
  config: Leaf;

  @ValidateNested({ each: true })
  @Type(() => Item)
  items: Item[];
}

describe(flattenValidationErrors.name, () => {
  it('names nested fields by full path, arrays by index, and unknown fields as such', async () => {
    const instance = plainToInstance(Root, {
      config: { voice_id: 5, extra: 1 },
      items: [{ n: 1 }, { n: 'x' }],
    });
    const errors = flattenValidationErrors(await validate(instance, VALIDATOR_OPTIONS));
    expect(errors).toEqual(
      expect.arrayContaining([
        { field: 'config.voice_id', message: 'voice_id must be a string' },
        { field: 'config.extra', message: 'unknown field' },
        { field: 'items[1].n', message: 'n must be an integer number' },
      ]),
    );
    expect(errors).toHaveLength(3);
  });
});

describe('flattenValidationErrors key names', () => {
  it('names an object key "0" as a key, not an array index', async () => {
    const instance = plainToInstance(Root, { config: { voice_id: 'v', '0': 1 }, items: [] });
    const errors = flattenValidationErrors(await validate(instance, VALIDATOR_OPTIONS));
    expect(errors).toEqual([{ field: 'config.0', message: 'unknown field' }]);
  });
});
