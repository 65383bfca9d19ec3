import { Module } from '@nestjs/common';
import { CarrierPerformanceStore } from './carrier-performance-store';
import { PredictionRecompute, SHIPMENT_FACTS_SOURCE } from './prediction-recompute';
import { PredictionStore } from './prediction-store';
import { SqlShipmentFactsSource } from './shipment-facts-source';

/**
 * Delivery predictions, attention and carrier analytics (README.md beside this file). Phase 1
 * of issue 26: the pure model, the aggregates and their stores; phase 2 imports this module
 * into the application and wires it to the tracking writer, the shipment resource and the CLI.
 */
@Module({
  providers: [
    PredictionStore,
    CarrierPerformanceStore,
    PredictionRecompute,
    { provide: SHIPMENT_FACTS_SOURCE, useClass: SqlShipmentFactsSource },
  ],
  exports: [PredictionStore, CarrierPerformanceStore, PredictionRecompute],
})
export class PredictionsModule {}
