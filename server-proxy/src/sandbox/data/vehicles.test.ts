import { describe, expect, it } from 'vitest';
import { VEHICLE_MODELS, buildVin, decodeVin, plateOf, unitCodeOfPlate } from './vehicles.ts';

describe('VINs and plates', () => {
  it('builds 17-character VINs with a valid check digit that decode back', () => {
    for (const [i, model] of VEHICLE_MODELS.entries()) {
      const code = 1_000_003 * i + 17;
      const vin = buildVin(model.prefix, 2015 + (i % 10), code);
      expect(vin).toMatch(/^[A-HJ-NPR-Z0-9]{17}$/);
      expect(decodeVin(vin)).toEqual({ model, modelYear: 2015 + (i % 10), unitCode: code });
    }
  });

  it('rejects VINs with a wrong check digit or an unknown model', () => {
    const vin = buildVin('1XKYD49X', 2020, 42);
    const wrong = `${vin.slice(0, 8)}${vin[8] === '1' ? '2' : '1'}${vin.slice(9)}`;
    expect(decodeVin(wrong)).toBeUndefined();
    expect(decodeVin('11111111111111111')).toBeUndefined();
  });

  it('maps unit codes to plates and back', () => {
    for (const code of [0, 1, 15, 16, 15_999_999, 20_000_123, 24_002_599]) {
      const plate = plateOf(code);
      expect(plate).toMatch(/^[A-Z]{3}\d{4}$/);
      expect(unitCodeOfPlate(plate.toLowerCase())).toBe(code);
    }
    expect(unitCodeOfPlate('AB-12')).toBeUndefined();
  });
});
