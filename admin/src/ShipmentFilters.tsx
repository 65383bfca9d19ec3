import {
  InputGuesser,
  Introspecter,
  type FilterGuesserProps,
  type FilterParameter,
  type IntrospectedFiterGuesserProps,
} from '@api-platform/admin';
import { useEffect, useState } from 'react';
import { Filter } from 'react-admin';
import { ChoiceFilter } from './ChoiceFilter';
import { ATTENTION_REASONS } from './insights';

const REASONS = ATTENTION_REASONS.map((r) => ({ id: r.code, name: r.label }));

/**
 * The shipment list's filters as API Platform Admin guesses them from `hydra:search`, but
 * `attention`, whose four values are a choice rather than a text to type.
 */
const IntrospectedShipmentFilters = ({
  schema,
  schemaAnalyzer,
  fields: _fields,
  readableFields: _readable,
  writableFields: _writable,
  ...rest
}: IntrospectedFiterGuesserProps) => {
  const [parameters, setParameters] = useState<FilterParameter[]>([]);
  useEffect(() => {
    if (schema) void schemaAnalyzer.getFiltersParametersFromSchema(schema).then(setParameters);
  }, [schema, schemaAnalyzer]);
  if (parameters.length === 0) return null;
  return (
    <Filter {...rest}>
      {parameters.map((p) =>
        p.name === 'attention' ? (
          <ChoiceFilter key={p.name} source={p.name} label="Attention" choices={REASONS} />
        ) : (
          <InputGuesser key={p.name} source={p.name} alwaysOn={p.isRequired} />
        ),
      )}
    </Filter>
  );
};

/** Takes what the list hands its filters (it renders them as the button and as the form). */
export const ShipmentFilters = (props: FilterGuesserProps) => (
  <Introspecter {...props} component={IntrospectedShipmentFilters} resource="shipments" />
);
