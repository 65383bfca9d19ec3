/** Countries the sandbox ships between: a gateway hub and a few real cities each. */
export interface SandboxCountry {
  readonly iso2: string;
  readonly hub: { readonly city: string; readonly facility: string };
  readonly cities: readonly string[];
}

export const SANDBOX_COUNTRIES: readonly SandboxCountry[] = [
  {
    iso2: 'CN',
    hub: { city: 'Shenzhen', facility: 'Shenzhen International Mail Processing Center' },
    cities: ['Guangzhou', 'Shenzhen', 'Yiwu', 'Shanghai', 'Dongguan'],
  },
  {
    iso2: 'US',
    hub: { city: 'Los Angeles', facility: 'Los Angeles International Service Center' },
    cities: ['New York', 'Chicago', 'Denver', 'Seattle', 'Austin', 'Boston'],
  },
  {
    iso2: 'DE',
    hub: { city: 'Frankfurt am Main', facility: 'Frankfurt Airport Parcel Hub' },
    cities: ['Berlin', 'Munich', 'Hamburg', 'Cologne', 'Leipzig'],
  },
  {
    iso2: 'GB',
    hub: { city: 'London', facility: 'Heathrow Worldwide Distribution Centre' },
    cities: ['Manchester', 'Birmingham', 'Leeds', 'Bristol', 'Glasgow'],
  },
  {
    iso2: 'FR',
    hub: { city: 'Roissy-en-France', facility: 'Roissy Charles de Gaulle Parcel Hub' },
    cities: ['Paris', 'Lyon', 'Marseille', 'Toulouse', 'Lille'],
  },
  {
    iso2: 'NL',
    hub: { city: 'Amsterdam', facility: 'Schiphol Airport Sorting Center' },
    cities: ['Rotterdam', 'Utrecht', 'Eindhoven', 'The Hague'],
  },
  {
    iso2: 'ES',
    hub: { city: 'Madrid', facility: 'Madrid Barajas Logistics Center' },
    cities: ['Barcelona', 'Valencia', 'Seville', 'Bilbao'],
  },
  {
    iso2: 'IT',
    hub: { city: 'Milan', facility: 'Milan Malpensa Sorting Center' },
    cities: ['Rome', 'Turin', 'Bologna', 'Naples'],
  },
  {
    iso2: 'JP',
    hub: { city: 'Tokyo', facility: 'Tokyo International Exchange Office' },
    cities: ['Osaka', 'Yokohama', 'Nagoya', 'Fukuoka'],
  },
  {
    iso2: 'CA',
    hub: { city: 'Toronto', facility: 'Toronto Gateway Processing Centre' },
    cities: ['Montreal', 'Vancouver', 'Calgary', 'Ottawa'],
  },
  {
    iso2: 'AU',
    hub: { city: 'Sydney', facility: 'Sydney Gateway Facility' },
    cities: ['Melbourne', 'Brisbane', 'Perth', 'Adelaide'],
  },
];
