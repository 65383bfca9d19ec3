/**
 * The attributes of action inputs and outputs whose members the spec leaves free-form, each
 * with the reason: `Class.attribute` (an object attribute, or an array of objects), or
 * `Class` (members beyond the declared ones). The schema generator (action-schemas.ts)
 * documents these as open maps and refuses any other object attribute without a class, so a
 * new open map is a decision taken here.
 */
export const OPEN_MAPS: Readonly<Record<string, string>> = {
  'EstimateInput.addonsQtyByKey': 'add-on key -> quantity, keys from the billing catalogue',
  'HostedCheckoutInput.addonsQtyByKey': 'add-on key -> quantity, keys from the billing catalogue',
  'ImportPreviewRow.values': 'a CSV row: its own column names -> values',
  'ImportPreUpload.suggestedMapping': 'the CSV’s own column names -> the field each fills',
  'CustomThemeOutput.variables': 'CSS custom properties derived from the page builder -> values',
  'PublicPageLook.builder': 'the tracking page’s builder settings as stored (TrackingPage.builder)',
  'GeneratedThemeOutput.builder': 'a tracking page builder, as TrackingPage.builder takes it',
  TrackingPushPayload: 'a tracking provider’s own push payload, read as the raw bytes it signs',
  HydraEntrypoint: 'one collection IRI per resource, named after it (hydra Entrypoint)',
  'JsonLdContextDocument.@context': 'a JSON-LD context: terms -> vocabulary IRIs',
  'HydraApiDocumentation.@context': 'a JSON-LD context: terms -> vocabulary IRIs',
  'HydraApiDocumentation.hydra:supportedClass': 'Hydra class descriptions (JSON-LD)',
};
