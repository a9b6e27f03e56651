import { ArrayMaxSize, IsInt, IsString, Max, ValidateNested, getMetadataStorage } from 'class-validator';
import { Type } from 'class-transformer';
import { validateInput } from './validate-input';

class Item {
  @IsInt()
  @Max(9)
  n!: number;
}

class Base {
  @IsString()
  name!: string;
}

class Holder extends Base {
  @ArrayMaxSize(3)
  @ValidateNested({ each: true })
  @Type(() => Item)
  items!: Item[];
}

describe('class-validator rules kept per class', () => {
  it('answers the same rules for a class every time, its ancestors’ included', () => {
    const storage = getMetadataStorage();
    const first = storage.getTargetValidationMetadatas(Holder, '', false, false);
    expect(storage.getTargetValidationMetadatas(Holder, '', false, false)).toBe(first);
    expect(first.map((rule) => rule.propertyName).sort()).toEqual(['items', 'items', 'name']);
    expect(storage.getTargetValidationMetadatas(Item, '', false, false)).not.toBe(first);
    expect(storage.groupByPropertyName(first)).toBe(storage.groupByPropertyName(first));
  });

  it('checks every item of a list against its own class, as before', () => {
    expect(validateInput(Holder, { name: 'a', items: [{ n: 1 }, { n: 2 }] })).toMatchObject({ name: 'a', items: [{ n: 1 }, { n: 2 }] });
    expect(() => validateInput(Holder, { name: 'a', items: [{ n: 1 }, { n: 12 }] })).toThrow('items[1].n: must not be greater than 9');
    expect(() => validateInput(Holder, { name: 'a', items: [{ n: 1 }, { n: 2 }, { n: 3 }, { n: 4 }] })).toThrow(/^items: /);
    expect(() => validateInput(Holder, { name: 5, items: [] })).toThrow(/^name: /);
  });
});
