import {
  FieldGuesser,
  HydraAdmin,
  ListGuesser,
  ResourceGuesser,
  ShowGuesser,
} from '@api-platform/admin';
import {
  AppBar,
  Datagrid,
  DateField,
  Layout,
  NumberField,
  ReferenceManyField,
  TextField,
  TitlePortal,
  type LayoutProps,
} from 'react-admin';
import { authProvider } from './auth';
import { dataProvider, ENTRYPOINT } from './data-provider';
import { LoginPage } from './LoginPage';
import { WorkspaceSwitcher } from './WorkspaceSwitcher';

const ConsoleAppBar = () => (
  <AppBar>
    <TitlePortal />
    <WorkspaceSwitcher />
  </AppBar>
);

const ConsoleLayout = (props: LayoutProps) => <Layout {...props} appBar={ConsoleAppBar} />;

/** The guessed list, with the columns that tell shipments apart (not all thirty fields). */
const ShipmentList = () => (
  <ListGuesser>
    <FieldGuesser source="trackingNumber" />
    <FieldGuesser source="trackingStatus" />
    <FieldGuesser source="originCarrier" />
    <FieldGuesser source="email" />
    <FieldGuesser source="orderNumbers" />
    <FieldGuesser source="createdAt" />
  </ListGuesser>
);

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
    <FieldGuesser source="expectedDeliveryDate" />
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
  </ShowGuesser>
);

/**
 * API Platform Admin on the API's Hydra documentation: every screen is guessed from it, but
 * for the shipment and order pages above. The menu lists what a merchant works with.
 */
export const App = () => (
  <HydraAdmin
    entrypoint={ENTRYPOINT}
    dataProvider={dataProvider}
    authProvider={authProvider}
    loginPage={LoginPage}
    layout={ConsoleLayout}
    requireAuth
    title="Shipment tracking"
    disableTelemetry
  >
    <ResourceGuesser name="shipments" list={ShipmentList} show={ShipmentShow} />
    <ResourceGuesser name="orders" show={OrderShow} />
    <ResourceGuesser name="order_items" />
    <ResourceGuesser name="shipment_items" />
    <ResourceGuesser name="tracking_checkpoints" />
    <ResourceGuesser name="statuses" />
    <ResourceGuesser name="workflows" />
    <ResourceGuesser name="fields" />
    <ResourceGuesser name="tracking_pages" />
    <ResourceGuesser name="email_notifications" />
    <ResourceGuesser name="workspaces" />
  </HydraAdmin>
);
