import {
  CreateGuesser,
  EditGuesser,
  FieldGuesser,
  HydraAdmin,
  ListGuesser,
  ResourceGuesser,
  ShowGuesser,
} from '@api-platform/admin';
import { MenuItem, Typography } from '@mui/material';
import {
  AppBar,
  CreateButton,
  Datagrid,
  DateField,
  Layout,
  Logout,
  NumberField,
  ReferenceManyField,
  TextField,
  TitlePortal,
  UserMenu,
  defaultTheme,
  useNotify,
  useRecordContext,
  type LayoutProps,
  type RaThemeOptions,
} from 'react-admin';
import { authProvider, session } from './auth';
import { Dashboard } from './Dashboard';
import { dataProvider, ENTRYPOINT } from './data-provider';
import { EntityFilter } from './EntityFilter';
import { basisText, windowText, type DeliveryPrediction } from './insights';
import { LoginPage } from './LoginPage';
import { saveFailureMessage } from './save-failure';
import { ShipmentFilters } from './ShipmentFilters';
import { workspaceIri } from './workspace';
import { WorkspaceSwitcher } from './WorkspaceSwitcher';

/** react-admin's theme with a primary colour dark enough for WCAG AA contrast. */
const theme: RaThemeOptions = {
  ...defaultTheme,
  palette: {
    ...defaultTheme.palette,
    primary: { main: '#1d4e89' },
    secondary: { main: '#1d4e89' },
    error: { main: '#b3261e' },
    // MUI's orange with white text reads 3.1:1; dark text on it reads over 4.5:1.
    warning: { main: '#ed6c02', contrastText: 'rgba(0, 0, 0, 0.87)' },
  },
};

/** The account menu: the signed-in address, and signing out. */
const ConsoleUserMenu = () => (
  <UserMenu>
    <MenuItem disabled>
      <Typography variant="body2">{session()?.email}</Typography>
    </MenuItem>
    <Logout />
  </UserMenu>
);

const ConsoleAppBar = () => (
  <AppBar userMenu={<ConsoleUserMenu />}>
    <TitlePortal />
    <WorkspaceSwitcher />
  </AppBar>
);

/**
 * Every list as guessed, without the row checkboxes (bulk actions): MUI's row checkbox has no
 * label axe-core accepts.
 */
const PlainList = () => <ListGuesser bulkActionButtons={false} />;

/**
 * The API lists custom fields of one entity at a time (`entity` is required): a choice, always
 * shown, instead of the guessed text inputs (the guessed `workspace` reference is the app
 * bar's switcher already). A page holds a workspace's fields, built-in ones included.
 */
const FIELD_FILTERS = [<EntityFilter key="entity" source="entity" alwaysOn />];
const FieldList = () => (
  <ListGuesser
    bulkActionButtons={false}
    filters={FIELD_FILTERS}
    filterDefaultValues={{ entity: 'shipments' }}
    perPage={100}
  />
);

/** A failed save's notice (saveFailureMessage), as an error: for edits and creates alike. */
const useSaveFailure = () => {
  const notify = useNotify();
  return {
    onError: (error: unknown) => {
      const message = saveFailureMessage(error);
      notify(message, { type: 'error', messageArgs: { _: message } });
    },
  };
};

const ConsoleEdit = () => <EditGuesser mutationOptions={useSaveFailure()} />;

/** Creates start in the workspace chosen in the app bar. */
const WorkspaceCreate = () => (
  <CreateGuesser
    defaultValues={() => ({ workspace: workspaceIri() })}
    mutationOptions={useSaveFailure()}
  />
);

/** From an order's page: a new item of that order. */
const AddItemButton = () => {
  const order = useRecordContext();
  return order ? (
    <CreateButton
      resource="order_items"
      label="Add an item"
      state={{ record: { order: order.id } }}
    />
  ) : null;
};

const ConsoleLayout = (props: LayoutProps) => <Layout {...props} appBar={ConsoleAppBar} />;

/** The guessed list, with the columns that tell shipments apart (not all thirty fields). */
const ShipmentList = () => (
  <ListGuesser bulkActionButtons={false} filters={<ShipmentFilters />}>
    <FieldGuesser source="trackingNumber" />
    <FieldGuesser source="trackingStatus" />
    <FieldGuesser source="attention" />
    <FieldGuesser source="originCarrier" />
    <FieldGuesser source="email" />
    <FieldGuesser source="orderNumbers" />
    <FieldGuesser source="expectedDeliveryDate" />
    <FieldGuesser source="createdAt" />
  </ListGuesser>
);

/** A parcel's delivery window in words, and where it comes from (`deliveryPrediction`). */
const DeliveryWindowField = (_: { label: string }) => {
  const record = useRecordContext();
  const prediction = record?.deliveryPrediction as DeliveryPrediction | null | undefined;
  if (!prediction)
    return <Typography variant="body2">None: only parcels on their way have one</Typography>;
  return (
    <>
      <Typography variant="body2">{windowText(prediction)}</Typography>
      <Typography variant="body2" color="text.secondary">
        {basisText(prediction)}
      </Typography>
    </>
  );
};

/** A shipment with its checkpoints (GET /shipments/{id}/checkpoints). */
const ShipmentShow = () => (
  <ShowGuesser>
    <FieldGuesser source="trackingNumber" />
    <FieldGuesser source="trackingStatus" />
    <FieldGuesser source="originCarrier" />
    <FieldGuesser source="destinationCarrier" />
    <FieldGuesser source="email" />
    <FieldGuesser source="phoneNumber" />
    <FieldGuesser source="orderNumbers" />
    <FieldGuesser source="orders" />
    <FieldGuesser source="shipmentStatus" />
    <FieldGuesser source="daysInTransit" />
    <DeliveryWindowField label="Delivery window" />
    <FieldGuesser source="expectedDeliveryDate" />
    <FieldGuesser source="attention" />
    <FieldGuesser source="createdAt" />
    <ReferenceManyField
      label="Checkpoints"
      reference="tracking_checkpoints"
      target="shipment"
      sort={{ field: 'checkpointDate', order: 'DESC' }}
    >
      <Datagrid bulkActionButtons={false} rowClick={false} empty={<p>No checkpoints yet.</p>}>
        <DateField source="checkpointDate" showTime />
        <TextField source="status" />
        <TextField source="info" emptyText="" />
        <TextField source="location" emptyText="" />
        <TextField source="carrier" emptyText="" />
      </Datagrid>
    </ReferenceManyField>
  </ShowGuesser>
);

/** An order with its items (GET /orders/{id}/items). */
const OrderShow = () => (
  <ShowGuesser>
    <FieldGuesser source="orderNumber" />
    <FieldGuesser source="orderStatus" />
    <FieldGuesser source="fulfillmentStatus" />
    <FieldGuesser source="email" />
    <FieldGuesser source="total" />
    <FieldGuesser source="currency" />
    <FieldGuesser source="shipments" />
    <FieldGuesser source="createdAt" />
    <ReferenceManyField label="Items" reference="order_items" target="order">
      <Datagrid bulkActionButtons={false} rowClick="show" empty={<p>No items.</p>}>
        <TextField source="productName" />
        <TextField source="productSku" emptyText="" />
        <NumberField source="qty" />
        <TextField source="price" />
        <TextField source="rowTotal" />
      </Datagrid>
    </ReferenceManyField>
    <AddItemButton />
  </ShowGuesser>
);

/**
 * API Platform Admin on the API's Hydra documentation: every screen is guessed from it, but
 * for the home page (Dashboard: attention and carrier performance) and the shipment and order
 * pages above. The menu lists what a merchant works with.
 */
export const App = () => (
  <HydraAdmin
    entrypoint={ENTRYPOINT}
    dataProvider={dataProvider}
    authProvider={authProvider}
    loginPage={LoginPage}
    layout={ConsoleLayout}
    dashboard={Dashboard}
    requireAuth
    title="Shipment tracking"
    theme={theme}
    darkTheme={null}
    disableTelemetry
  >
    <ResourceGuesser
      edit={ConsoleEdit}
      name="shipments"
      list={ShipmentList}
      show={ShipmentShow}
      create={WorkspaceCreate}
      recordRepresentation="trackingNumber"
    />
    <ResourceGuesser
      edit={ConsoleEdit}
      name="orders"
      list={PlainList}
      show={OrderShow}
      create={WorkspaceCreate}
      recordRepresentation="orderNumber"
    />
    <ResourceGuesser
      edit={ConsoleEdit}
      name="order_items"
      list={PlainList}
      recordRepresentation="productName"
    />
    <ResourceGuesser edit={ConsoleEdit} name="shipment_items" list={PlainList} />
    <ResourceGuesser
      edit={ConsoleEdit}
      name="tracking_checkpoints"
      list={PlainList}
      recordRepresentation="status"
    />
    <ResourceGuesser
      edit={ConsoleEdit}
      name="statuses"
      list={PlainList}
      create={WorkspaceCreate}
      recordRepresentation="title"
    />
    <ResourceGuesser
      edit={ConsoleEdit}
      name="workflows"
      list={PlainList}
      create={WorkspaceCreate}
      recordRepresentation="title"
    />
    <ResourceGuesser
      edit={ConsoleEdit}
      name="fields"
      list={FieldList}
      create={WorkspaceCreate}
      recordRepresentation="title"
    />
    <ResourceGuesser
      edit={ConsoleEdit}
      name="tracking_pages"
      list={PlainList}
      create={WorkspaceCreate}
      recordRepresentation="title"
    />
    <ResourceGuesser
      edit={ConsoleEdit}
      name="email_notifications"
      list={PlainList}
      create={WorkspaceCreate}
      recordRepresentation="title"
    />
    <ResourceGuesser
      edit={ConsoleEdit}
      name="workspaces"
      list={PlainList}
      recordRepresentation="title"
    />
  </HydraAdmin>
);
