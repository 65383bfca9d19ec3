import { Module } from '@nestjs/common';
import { ResourceController } from '../hydra/controller/resource-controller';
import { Country } from './country.entity';
import { CountryStatesController } from './country-states.controller';
import { GeographyCatalogueSync } from './geography-catalogue-sync';
import { GeographyStore } from './geography-store';
import { State } from './state.entity';
import { Timezone } from './timezone.entity';

/** GET /countries, /countries/{code}; generated from the declaration. */
export class CountriesController extends ResourceController(Country) {}
/** GET /states, /states/{code}. */
export class StatesController extends ResourceController(State) {}
/** GET /timezones, /timezones/{code} (code percent-encoded: Europe%2FBerlin). */
export class TimezonesController extends ResourceController(Timezone) {}

@Module({
  controllers: [
    CountryStatesController,
    CountriesController,
    StatesController,
    TimezonesController,
  ],
  providers: [GeographyCatalogueSync, GeographyStore],
  exports: [GeographyCatalogueSync],
})
export class GeographyModule {}
