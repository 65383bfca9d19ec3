import type { TrackingStatusCode } from '../../../tracking/statuses';

/** Languages of the public tracking page, in the order the language menu lists them. */
export const PAGE_LANGUAGES = ['en', 'de', 'fr', 'es', 'it', 'pt', 'ru'] as const;
export type PageLanguage = (typeof PAGE_LANGUAGES)[number];

/** Each language's own name, for the language menu. */
export const LANGUAGE_NAMES: Record<PageLanguage, string> = {
  en: 'English',
  de: 'Deutsch',
  fr: 'Français',
  es: 'Español',
  it: 'Italiano',
  pt: 'Português',
  ru: 'Русский',
};

/** A status as a customer reads it: a short title and one sentence. */
export interface StatusWords {
  title: string;
  line: string;
}

/**
 * The words of the page. `{name}` placeholders are filled by `fill`; values are escaped by
 * the template like any other.
 */
export interface Messages {
  defaultTitle: string;
  skipToContent: string;
  language: string;
  trackingNumber: string;
  orderNumber: string;
  order: string;
  expectedDelivery: string;
  /** Label of the delivery window ("Arrives Tue 2 – Thu 4 Dec") when the carrier gave no date. */
  arrives: string;
  /** Said plainly when the parcel is past its window or promised date. */
  runningLate: string;
  deliveredOn: string;
  carrier: string;
  trackOnCarrierSite: string;
  from: string;
  to: string;
  lastUpdate: string;
  progress: string;
  steps: {
    ordered: string;
    shipped: string;
    inTransit: string;
    outForDelivery: string;
    delivered: string;
  };
  stepDone: string;
  stepCurrent: string;
  history: string;
  showAllUpdates: string;
  noCheckpoints: string;
  timesIn: string;
  itemsInParcel: string;
  quantity: string;
  otherParcels: string;
  parcel: string;
  reviewTitle: string;
  reviewRating: string;
  star: string;
  stars: string;
  reviewComment: string;
  reviewSend: string;
  reviewThanks: string;
  reviewYourScore: string;
  reviewInvalid: string;
  reviewLimitedTitle: string;
  reviewLimited: string;
  homeIntro: string;
  searchByTracking: string;
  searchByOrder: string;
  emailOrPhone: string;
  searchButton: string;
  searchNotFound: string;
  searchIncomplete: string;
  tooManyAttempts: string;
  linkNotFoundTitle: string;
  linkNotFound: string;
  statuses: Record<TrackingStatusCode | 'unknown', StatusWords>;
}

const en: Messages = {
  defaultTitle: 'Track your order',
  skipToContent: 'Skip to content',
  language: 'Language',
  trackingNumber: 'Tracking number',
  orderNumber: 'Order number',
  order: 'Order {number}',
  expectedDelivery: 'Expected delivery',
  arrives: 'Arrives',
  runningLate:
    'Your parcel is running late. It is still on its way and we are keeping an eye on it.',
  deliveredOn: 'Delivered',
  carrier: 'Carrier',
  trackOnCarrierSite: 'Track on the {carrier} website',
  from: 'From',
  to: 'To',
  lastUpdate: 'Last update',
  progress: 'Delivery progress',
  steps: {
    ordered: 'Ordered',
    shipped: 'Shipped',
    inTransit: 'In transit',
    outForDelivery: 'Out for delivery',
    delivered: 'Delivered',
  },
  stepDone: 'done',
  stepCurrent: 'current step',
  history: 'Tracking history',
  showAllUpdates: 'Show all {count} updates',
  noCheckpoints: 'No tracking information yet. Please check again later.',
  timesIn: 'Times are shown in {zone}.',
  itemsInParcel: 'In this parcel',
  quantity: 'Quantity',
  otherParcels: 'Other parcels of this order',
  parcel: 'Parcel',
  reviewTitle: 'How was your delivery?',
  reviewRating: 'Your rating',
  star: '{count} star',
  stars: '{count} stars',
  reviewComment: 'Comment (optional)',
  reviewSend: 'Send review',
  reviewThanks: 'Thank you for your review!',
  reviewYourScore: 'Your rating: {score} of 5.',
  reviewInvalid: 'Please choose a rating from 1 to 5 stars.',
  reviewLimitedTitle: 'Review not saved',
  reviewLimited: 'You have changed this review too often. Please try again later.',
  homeIntro:
    'Enter your tracking number, or your order number with the e-mail address or phone number of the order.',
  searchByTracking: 'Track by tracking number',
  searchByOrder: 'Track by order number',
  emailOrPhone: 'E-mail or phone number',
  searchButton: 'Track',
  searchNotFound:
    'We could not find a parcel matching these details. Please check them and try again.',
  searchIncomplete:
    'Please enter a tracking number, or an order number with an e-mail or phone number.',
  tooManyAttempts: 'Too many attempts. Please wait a minute and try again.',
  linkNotFoundTitle: 'Tracking link not found',
  linkNotFound: 'This tracking link is not valid or no longer available.',
  statuses: {
    unknown: {
      title: 'Waiting for tracking',
      line: 'We are waiting for the first update from the carrier.',
    },
    pre_transit: {
      title: 'Label created',
      line: 'The parcel is ready and waiting for the carrier to pick it up.',
    },
    no_info: { title: 'Waiting for tracking', line: 'The carrier has not scanned the parcel yet.' },
    in_transit: { title: 'On its way', line: 'Your parcel is on its way to you.' },
    delivery_in_progress: { title: 'Out for delivery', line: 'Your parcel should arrive today.' },
    delivered: { title: 'Delivered', line: 'Your parcel has been delivered.' },
    unsuccessful_delivery: {
      title: 'Delivery attempt failed',
      line: 'The carrier could not deliver the parcel; a new attempt usually follows.',
    },
    error: { title: 'Delivery problem', line: 'The carrier reported a problem with the parcel.' },
    expired: {
      title: 'No recent updates',
      line: 'The carrier has not reported anything for a long time.',
    },
    available_for_pickup: {
      title: 'Ready for pickup',
      line: 'Your parcel is waiting at a pickup point.',
    },
    cancelled: { title: 'Cancelled', line: 'The delivery was cancelled.' },
    return_to_sender: {
      title: 'Returning to sender',
      line: 'The parcel could not be delivered and is on its way back.',
    },
    transit_limit_exceeded: { title: 'Delayed', line: 'Your parcel is taking longer than usual.' },
  },
};

const de: Messages = {
  defaultTitle: 'Sendungsverfolgung',
  skipToContent: 'Zum Inhalt springen',
  language: 'Sprache',
  trackingNumber: 'Sendungsnummer',
  orderNumber: 'Bestellnummer',
  order: 'Bestellung {number}',
  expectedDelivery: 'Voraussichtliche Zustellung',
  arrives: 'Ankunft',
  runningLate: 'Ihr Paket ist verspätet. Es ist weiter unterwegs und wir behalten es im Blick.',
  deliveredOn: 'Zugestellt',
  carrier: 'Versanddienstleister',
  trackOnCarrierSite: 'Auf der Website von {carrier} verfolgen',
  from: 'Von',
  to: 'Nach',
  lastUpdate: 'Letzte Aktualisierung',
  progress: 'Lieferfortschritt',
  steps: {
    ordered: 'Bestellt',
    shipped: 'Versandt',
    inTransit: 'Unterwegs',
    outForDelivery: 'In Zustellung',
    delivered: 'Zugestellt',
  },
  stepDone: 'erledigt',
  stepCurrent: 'aktueller Schritt',
  history: 'Sendungsverlauf',
  showAllUpdates: 'Alle {count} Meldungen anzeigen',
  noCheckpoints: 'Noch keine Sendungsdaten. Bitte schauen Sie später wieder vorbei.',
  timesIn: 'Zeiten in {zone}.',
  itemsInParcel: 'In diesem Paket',
  quantity: 'Menge',
  otherParcels: 'Weitere Pakete dieser Bestellung',
  parcel: 'Paket',
  reviewTitle: 'Wie war Ihre Lieferung?',
  reviewRating: 'Ihre Bewertung',
  star: '{count} Stern',
  stars: '{count} Sterne',
  reviewComment: 'Kommentar (optional)',
  reviewSend: 'Bewertung senden',
  reviewThanks: 'Vielen Dank für Ihre Bewertung!',
  reviewYourScore: 'Ihre Bewertung: {score} von 5.',
  reviewInvalid: 'Bitte wählen Sie eine Bewertung von 1 bis 5 Sternen.',
  reviewLimitedTitle: 'Bewertung nicht gespeichert',
  reviewLimited: 'Sie haben diese Bewertung zu oft geändert. Bitte versuchen Sie es später erneut.',
  homeIntro:
    'Geben Sie Ihre Sendungsnummer ein, oder Ihre Bestellnummer mit der E-Mail-Adresse oder Telefonnummer der Bestellung.',
  searchByTracking: 'Mit Sendungsnummer suchen',
  searchByOrder: 'Mit Bestellnummer suchen',
  emailOrPhone: 'E-Mail oder Telefonnummer',
  searchButton: 'Verfolgen',
  searchNotFound:
    'Wir konnten kein Paket zu diesen Angaben finden. Bitte prüfen Sie sie und versuchen Sie es erneut.',
  searchIncomplete:
    'Bitte geben Sie eine Sendungsnummer ein, oder eine Bestellnummer mit E-Mail oder Telefonnummer.',
  tooManyAttempts: 'Zu viele Versuche. Bitte warten Sie eine Minute und versuchen Sie es erneut.',
  linkNotFoundTitle: 'Link nicht gefunden',
  linkNotFound: 'Dieser Link zur Sendungsverfolgung ist ungültig oder nicht mehr verfügbar.',
  statuses: {
    unknown: {
      title: 'Warten auf Sendungsdaten',
      line: 'Wir warten auf die erste Meldung des Versanddienstleisters.',
    },
    pre_transit: {
      title: 'Versandetikett erstellt',
      line: 'Das Paket ist bereit und wartet auf die Abholung.',
    },
    no_info: {
      title: 'Warten auf Sendungsdaten',
      line: 'Der Versanddienstleister hat das Paket noch nicht erfasst.',
    },
    in_transit: { title: 'Unterwegs', line: 'Ihr Paket ist auf dem Weg zu Ihnen.' },
    delivery_in_progress: { title: 'In Zustellung', line: 'Ihr Paket sollte heute ankommen.' },
    delivered: { title: 'Zugestellt', line: 'Ihr Paket wurde zugestellt.' },
    unsuccessful_delivery: {
      title: 'Zustellversuch gescheitert',
      line: 'Das Paket konnte nicht zugestellt werden; meist folgt ein neuer Versuch.',
    },
    error: {
      title: 'Problem bei der Zustellung',
      line: 'Der Versanddienstleister meldet ein Problem mit dem Paket.',
    },
    expired: {
      title: 'Keine neuen Meldungen',
      line: 'Der Versanddienstleister hat lange nichts gemeldet.',
    },
    available_for_pickup: {
      title: 'Abholbereit',
      line: 'Ihr Paket liegt an einer Abholstelle für Sie bereit.',
    },
    cancelled: { title: 'Storniert', line: 'Die Zustellung wurde storniert.' },
    return_to_sender: {
      title: 'Rücksendung',
      line: 'Das Paket konnte nicht zugestellt werden und geht zurück.',
    },
    transit_limit_exceeded: { title: 'Verspätet', line: 'Ihr Paket braucht länger als üblich.' },
  },
};

const fr: Messages = {
  defaultTitle: 'Suivre ma commande',
  skipToContent: 'Aller au contenu',
  language: 'Langue',
  trackingNumber: 'Numéro de suivi',
  orderNumber: 'Numéro de commande',
  order: 'Commande {number}',
  expectedDelivery: 'Livraison prévue',
  arrives: 'Arrivée',
  runningLate: 'Votre colis a du retard. Il est toujours en route et nous le surveillons.',
  deliveredOn: 'Livré',
  carrier: 'Transporteur',
  trackOnCarrierSite: 'Suivre sur le site de {carrier}',
  from: 'De',
  to: 'À',
  lastUpdate: 'Dernière mise à jour',
  progress: 'Progression de la livraison',
  steps: {
    ordered: 'Commandé',
    shipped: 'Expédié',
    inTransit: 'En transit',
    outForDelivery: 'En cours de livraison',
    delivered: 'Livré',
  },
  stepDone: 'terminé',
  stepCurrent: 'étape en cours',
  history: 'Historique du suivi',
  showAllUpdates: 'Afficher les {count} mises à jour',
  noCheckpoints: 'Pas encore d’informations de suivi. Revenez plus tard.',
  timesIn: 'Heures affichées en {zone}.',
  itemsInParcel: 'Dans ce colis',
  quantity: 'Quantité',
  otherParcels: 'Autres colis de cette commande',
  parcel: 'Colis',
  reviewTitle: 'Comment s’est passée votre livraison ?',
  reviewRating: 'Votre note',
  star: '{count} étoile',
  stars: '{count} étoiles',
  reviewComment: 'Commentaire (facultatif)',
  reviewSend: 'Envoyer mon avis',
  reviewThanks: 'Merci pour votre avis !',
  reviewYourScore: 'Votre note : {score} sur 5.',
  reviewInvalid: 'Veuillez choisir une note de 1 à 5 étoiles.',
  reviewLimitedTitle: 'Avis non enregistré',
  reviewLimited: 'Vous avez modifié cet avis trop souvent. Veuillez réessayer plus tard.',
  homeIntro:
    'Saisissez votre numéro de suivi, ou votre numéro de commande avec l’adresse e-mail ou le téléphone de la commande.',
  searchByTracking: 'Suivre par numéro de suivi',
  searchByOrder: 'Suivre par numéro de commande',
  emailOrPhone: 'E-mail ou numéro de téléphone',
  searchButton: 'Suivre',
  searchNotFound:
    'Nous n’avons trouvé aucun colis correspondant à ces informations. Vérifiez-les et réessayez.',
  searchIncomplete:
    'Saisissez un numéro de suivi, ou un numéro de commande avec un e-mail ou un téléphone.',
  tooManyAttempts: 'Trop de tentatives. Patientez une minute puis réessayez.',
  linkNotFoundTitle: 'Lien introuvable',
  linkNotFound: 'Ce lien de suivi n’est pas valide ou n’est plus disponible.',
  statuses: {
    unknown: {
      title: 'En attente de suivi',
      line: 'Nous attendons la première information du transporteur.',
    },
    pre_transit: {
      title: 'Étiquette créée',
      line: 'Le colis est prêt et attend d’être pris en charge.',
    },
    no_info: {
      title: 'En attente de suivi',
      line: 'Le transporteur n’a pas encore scanné le colis.',
    },
    in_transit: { title: 'En route', line: 'Votre colis est en route.' },
    delivery_in_progress: {
      title: 'En cours de livraison',
      line: 'Votre colis devrait arriver aujourd’hui.',
    },
    delivered: { title: 'Livré', line: 'Votre colis a été livré.' },
    unsuccessful_delivery: {
      title: 'Échec de livraison',
      line: 'Le transporteur n’a pas pu livrer le colis ; une nouvelle tentative suit en général.',
    },
    error: {
      title: 'Problème de livraison',
      line: 'Le transporteur signale un problème avec le colis.',
    },
    expired: {
      title: 'Aucune mise à jour récente',
      line: 'Le transporteur n’a rien signalé depuis longtemps.',
    },
    available_for_pickup: {
      title: 'Prêt à être retiré',
      line: 'Votre colis vous attend dans un point de retrait.',
    },
    cancelled: { title: 'Annulé', line: 'La livraison a été annulée.' },
    return_to_sender: {
      title: 'Retour à l’expéditeur',
      line: 'Le colis n’a pas pu être livré et repart chez l’expéditeur.',
    },
    transit_limit_exceeded: {
      title: 'Retardé',
      line: 'Votre colis met plus de temps que d’habitude.',
    },
  },
};

const es: Messages = {
  defaultTitle: 'Seguir mi pedido',
  skipToContent: 'Ir al contenido',
  language: 'Idioma',
  trackingNumber: 'Número de seguimiento',
  orderNumber: 'Número de pedido',
  order: 'Pedido {number}',
  expectedDelivery: 'Entrega prevista',
  arrives: 'Llega',
  runningLate: 'Tu paquete se está retrasando. Sigue en camino y lo estamos vigilando.',
  deliveredOn: 'Entregado',
  carrier: 'Transportista',
  trackOnCarrierSite: 'Seguir en la web de {carrier}',
  from: 'Desde',
  to: 'Hasta',
  lastUpdate: 'Última actualización',
  progress: 'Progreso de la entrega',
  steps: {
    ordered: 'Pedido',
    shipped: 'Enviado',
    inTransit: 'En tránsito',
    outForDelivery: 'En reparto',
    delivered: 'Entregado',
  },
  stepDone: 'completado',
  stepCurrent: 'paso actual',
  history: 'Historial de seguimiento',
  showAllUpdates: 'Ver las {count} actualizaciones',
  noCheckpoints: 'Aún no hay información de seguimiento. Vuelve a consultar más tarde.',
  timesIn: 'Horas mostradas en {zone}.',
  itemsInParcel: 'En este paquete',
  quantity: 'Cantidad',
  otherParcels: 'Otros paquetes de este pedido',
  parcel: 'Paquete',
  reviewTitle: '¿Qué tal fue tu entrega?',
  reviewRating: 'Tu valoración',
  star: '{count} estrella',
  stars: '{count} estrellas',
  reviewComment: 'Comentario (opcional)',
  reviewSend: 'Enviar valoración',
  reviewThanks: '¡Gracias por tu valoración!',
  reviewYourScore: 'Tu valoración: {score} de 5.',
  reviewInvalid: 'Elige una valoración de 1 a 5 estrellas.',
  reviewLimitedTitle: 'Valoración no guardada',
  reviewLimited: 'Has cambiado esta valoración demasiadas veces. Inténtalo de nuevo más tarde.',
  homeIntro:
    'Introduce tu número de seguimiento, o tu número de pedido con el e-mail o el teléfono del pedido.',
  searchByTracking: 'Buscar por número de seguimiento',
  searchByOrder: 'Buscar por número de pedido',
  emailOrPhone: 'E-mail o teléfono',
  searchButton: 'Seguir',
  searchNotFound:
    'No encontramos ningún paquete con estos datos. Compruébalos e inténtalo de nuevo.',
  searchIncomplete:
    'Introduce un número de seguimiento, o un número de pedido con e-mail o teléfono.',
  tooManyAttempts: 'Demasiados intentos. Espera un minuto e inténtalo de nuevo.',
  linkNotFoundTitle: 'Enlace no encontrado',
  linkNotFound: 'Este enlace de seguimiento no es válido o ya no está disponible.',
  statuses: {
    unknown: {
      title: 'Esperando seguimiento',
      line: 'Esperamos la primera información del transportista.',
    },
    pre_transit: { title: 'Etiqueta creada', line: 'El paquete está listo y espera la recogida.' },
    no_info: {
      title: 'Esperando seguimiento',
      line: 'El transportista aún no ha escaneado el paquete.',
    },
    in_transit: { title: 'En camino', line: 'Tu paquete está en camino.' },
    delivery_in_progress: { title: 'En reparto', line: 'Tu paquete debería llegar hoy.' },
    delivered: { title: 'Entregado', line: 'Tu paquete ha sido entregado.' },
    unsuccessful_delivery: {
      title: 'Intento de entrega fallido',
      line: 'El transportista no pudo entregar el paquete; suele haber un nuevo intento.',
    },
    error: {
      title: 'Problema con la entrega',
      line: 'El transportista informa de un problema con el paquete.',
    },
    expired: {
      title: 'Sin novedades recientes',
      line: 'El transportista no informa de nada desde hace tiempo.',
    },
    available_for_pickup: {
      title: 'Listo para recoger',
      line: 'Tu paquete te espera en un punto de recogida.',
    },
    cancelled: { title: 'Cancelado', line: 'La entrega se ha cancelado.' },
    return_to_sender: {
      title: 'Devuelto al remitente',
      line: 'El paquete no pudo entregarse y vuelve al remitente.',
    },
    transit_limit_exceeded: {
      title: 'Retrasado',
      line: 'Tu paquete está tardando más de lo habitual.',
    },
  },
};

const it: Messages = {
  defaultTitle: 'Traccia il tuo ordine',
  skipToContent: 'Vai al contenuto',
  language: 'Lingua',
  trackingNumber: 'Numero di tracking',
  orderNumber: 'Numero d’ordine',
  order: 'Ordine {number}',
  expectedDelivery: 'Consegna prevista',
  arrives: 'Arrivo',
  runningLate: 'Il tuo pacco è in ritardo. È ancora in viaggio e lo stiamo seguendo.',
  deliveredOn: 'Consegnato',
  carrier: 'Corriere',
  trackOnCarrierSite: 'Traccia sul sito di {carrier}',
  from: 'Da',
  to: 'A',
  lastUpdate: 'Ultimo aggiornamento',
  progress: 'Stato della consegna',
  steps: {
    ordered: 'Ordinato',
    shipped: 'Spedito',
    inTransit: 'In transito',
    outForDelivery: 'In consegna',
    delivered: 'Consegnato',
  },
  stepDone: 'completato',
  stepCurrent: 'passo attuale',
  history: 'Cronologia della spedizione',
  showAllUpdates: 'Mostra tutti i {count} aggiornamenti',
  noCheckpoints: 'Ancora nessuna informazione di tracking. Riprova più tardi.',
  timesIn: 'Orari indicati in {zone}.',
  itemsInParcel: 'In questo pacco',
  quantity: 'Quantità',
  otherParcels: 'Altri pacchi di questo ordine',
  parcel: 'Pacco',
  reviewTitle: 'Com’è andata la consegna?',
  reviewRating: 'Il tuo voto',
  star: '{count} stella',
  stars: '{count} stelle',
  reviewComment: 'Commento (facoltativo)',
  reviewSend: 'Invia recensione',
  reviewThanks: 'Grazie per la tua recensione!',
  reviewYourScore: 'Il tuo voto: {score} su 5.',
  reviewInvalid: 'Scegli un voto da 1 a 5 stelle.',
  reviewLimitedTitle: 'Recensione non salvata',
  reviewLimited: 'Hai modificato questa recensione troppe volte. Riprova più tardi.',
  homeIntro:
    'Inserisci il numero di tracking, oppure il numero d’ordine con l’e-mail o il telefono dell’ordine.',
  searchByTracking: 'Cerca per numero di tracking',
  searchByOrder: 'Cerca per numero d’ordine',
  emailOrPhone: 'E-mail o telefono',
  searchButton: 'Traccia',
  searchNotFound: 'Non abbiamo trovato pacchi corrispondenti a questi dati. Controllali e riprova.',
  searchIncomplete:
    'Inserisci un numero di tracking, oppure un numero d’ordine con e-mail o telefono.',
  tooManyAttempts: 'Troppi tentativi. Attendi un minuto e riprova.',
  linkNotFoundTitle: 'Link non trovato',
  linkNotFound: 'Questo link di tracking non è valido o non è più disponibile.',
  statuses: {
    unknown: {
      title: 'In attesa di tracking',
      line: 'Attendiamo il primo aggiornamento del corriere.',
    },
    pre_transit: {
      title: 'Etichetta creata',
      line: 'Il pacco è pronto e attende il ritiro del corriere.',
    },
    no_info: {
      title: 'In attesa di tracking',
      line: 'Il corriere non ha ancora registrato il pacco.',
    },
    in_transit: { title: 'In viaggio', line: 'Il tuo pacco è in viaggio verso di te.' },
    delivery_in_progress: { title: 'In consegna', line: 'Il tuo pacco dovrebbe arrivare oggi.' },
    delivered: { title: 'Consegnato', line: 'Il tuo pacco è stato consegnato.' },
    unsuccessful_delivery: {
      title: 'Tentativo di consegna fallito',
      line: 'Il corriere non ha potuto consegnare il pacco; di solito segue un nuovo tentativo.',
    },
    error: { title: 'Problema di consegna', line: 'Il corriere segnala un problema con il pacco.' },
    expired: {
      title: 'Nessun aggiornamento recente',
      line: 'Il corriere non segnala nulla da molto tempo.',
    },
    available_for_pickup: {
      title: 'Pronto per il ritiro',
      line: 'Il tuo pacco ti aspetta in un punto di ritiro.',
    },
    cancelled: { title: 'Annullato', line: 'La consegna è stata annullata.' },
    return_to_sender: {
      title: 'In restituzione al mittente',
      line: 'Il pacco non è stato consegnato e torna al mittente.',
    },
    transit_limit_exceeded: {
      title: 'In ritardo',
      line: 'Il tuo pacco ci sta mettendo più del solito.',
    },
  },
};

const pt: Messages = {
  defaultTitle: 'Rastrear a minha encomenda',
  skipToContent: 'Ir para o conteúdo',
  language: 'Idioma',
  trackingNumber: 'Código de rastreio',
  orderNumber: 'Número da encomenda',
  order: 'Encomenda {number}',
  expectedDelivery: 'Entrega prevista',
  arrives: 'Chega',
  runningLate: 'A sua encomenda está atrasada. Continua a caminho e estamos a acompanhá-la.',
  deliveredOn: 'Entregue',
  carrier: 'Transportadora',
  trackOnCarrierSite: 'Rastrear no site da {carrier}',
  from: 'De',
  to: 'Para',
  lastUpdate: 'Última atualização',
  progress: 'Progresso da entrega',
  steps: {
    ordered: 'Encomendado',
    shipped: 'Enviado',
    inTransit: 'Em trânsito',
    outForDelivery: 'Em distribuição',
    delivered: 'Entregue',
  },
  stepDone: 'concluído',
  stepCurrent: 'passo atual',
  history: 'Histórico de rastreio',
  showAllUpdates: 'Mostrar as {count} atualizações',
  noCheckpoints: 'Ainda sem informações de rastreio. Volte a consultar mais tarde.',
  timesIn: 'Horas apresentadas em {zone}.',
  itemsInParcel: 'Neste volume',
  quantity: 'Quantidade',
  otherParcels: 'Outros volumes desta encomenda',
  parcel: 'Volume',
  reviewTitle: 'Como correu a sua entrega?',
  reviewRating: 'A sua avaliação',
  star: '{count} estrela',
  stars: '{count} estrelas',
  reviewComment: 'Comentário (opcional)',
  reviewSend: 'Enviar avaliação',
  reviewThanks: 'Obrigado pela sua avaliação!',
  reviewYourScore: 'A sua avaliação: {score} de 5.',
  reviewInvalid: 'Escolha uma avaliação de 1 a 5 estrelas.',
  reviewLimitedTitle: 'Avaliação não guardada',
  reviewLimited: 'Alterou esta avaliação demasiadas vezes. Tente novamente mais tarde.',
  homeIntro:
    'Introduza o código de rastreio, ou o número da encomenda com o e-mail ou o telefone da encomenda.',
  searchByTracking: 'Pesquisar por código de rastreio',
  searchByOrder: 'Pesquisar por número da encomenda',
  emailOrPhone: 'E-mail ou telefone',
  searchButton: 'Rastrear',
  searchNotFound: 'Não encontrámos nenhum volume com estes dados. Verifique-os e tente novamente.',
  searchIncomplete:
    'Introduza um código de rastreio, ou um número de encomenda com e-mail ou telefone.',
  tooManyAttempts: 'Demasiadas tentativas. Aguarde um minuto e tente novamente.',
  linkNotFoundTitle: 'Link não encontrado',
  linkNotFound: 'Este link de rastreio não é válido ou já não está disponível.',
  statuses: {
    unknown: {
      title: 'A aguardar rastreio',
      line: 'Aguardamos a primeira informação da transportadora.',
    },
    pre_transit: { title: 'Etiqueta criada', line: 'O volume está pronto e aguarda a recolha.' },
    no_info: {
      title: 'A aguardar rastreio',
      line: 'A transportadora ainda não registou o volume.',
    },
    in_transit: { title: 'A caminho', line: 'O seu volume está a caminho.' },
    delivery_in_progress: { title: 'Em distribuição', line: 'O seu volume deve chegar hoje.' },
    delivered: { title: 'Entregue', line: 'O seu volume foi entregue.' },
    unsuccessful_delivery: {
      title: 'Tentativa de entrega falhada',
      line: 'A transportadora não conseguiu entregar o volume; normalmente segue-se nova tentativa.',
    },
    error: {
      title: 'Problema na entrega',
      line: 'A transportadora comunicou um problema com o volume.',
    },
    expired: {
      title: 'Sem atualizações recentes',
      line: 'A transportadora não comunica nada há muito tempo.',
    },
    available_for_pickup: {
      title: 'Pronto para levantamento',
      line: 'O seu volume aguarda num ponto de recolha.',
    },
    cancelled: { title: 'Cancelado', line: 'A entrega foi cancelada.' },
    return_to_sender: {
      title: 'Devolvido ao remetente',
      line: 'O volume não pôde ser entregue e regressa ao remetente.',
    },
    transit_limit_exceeded: {
      title: 'Atrasado',
      line: 'O seu volume está a demorar mais do que o habitual.',
    },
  },
};

const ru: Messages = {
  defaultTitle: 'Отслеживание заказа',
  skipToContent: 'Перейти к содержимому',
  language: 'Язык',
  trackingNumber: 'Трек-номер',
  orderNumber: 'Номер заказа',
  order: 'Заказ {number}',
  expectedDelivery: 'Ожидаемая доставка',
  arrives: 'Прибудет',
  runningLate: 'Ваша посылка задерживается. Она всё ещё в пути, и мы следим за ней.',
  deliveredOn: 'Доставлено',
  carrier: 'Перевозчик',
  trackOnCarrierSite: 'Отследить на сайте {carrier}',
  from: 'Откуда',
  to: 'Куда',
  lastUpdate: 'Последнее обновление',
  progress: 'Ход доставки',
  steps: {
    ordered: 'Заказан',
    shipped: 'Отправлен',
    inTransit: 'В пути',
    outForDelivery: 'Передан курьеру',
    delivered: 'Доставлен',
  },
  stepDone: 'выполнено',
  stepCurrent: 'текущий этап',
  history: 'История отслеживания',
  showAllUpdates: 'Показать все обновления ({count})',
  noCheckpoints: 'Пока нет данных отслеживания. Загляните позже.',
  timesIn: 'Время указано в поясе {zone}.',
  itemsInParcel: 'В этой посылке',
  quantity: 'Количество',
  otherParcels: 'Другие посылки этого заказа',
  parcel: 'Посылка',
  reviewTitle: 'Как прошла доставка?',
  reviewRating: 'Ваша оценка',
  star: 'Звёзд: {count}',
  stars: 'Звёзд: {count}',
  reviewComment: 'Комментарий (необязательно)',
  reviewSend: 'Отправить отзыв',
  reviewThanks: 'Спасибо за отзыв!',
  reviewYourScore: 'Ваша оценка: {score} из 5.',
  reviewInvalid: 'Выберите оценку от 1 до 5 звёзд.',
  reviewLimitedTitle: 'Отзыв не сохранён',
  reviewLimited: 'Вы слишком часто меняли этот отзыв. Попробуйте позже.',
  homeIntro:
    'Введите трек-номер или номер заказа вместе с e-mail или телефоном, указанными в заказе.',
  searchByTracking: 'Поиск по трек-номеру',
  searchByOrder: 'Поиск по номеру заказа',
  emailOrPhone: 'E-mail или телефон',
  searchButton: 'Отследить',
  searchNotFound: 'Посылка с такими данными не найдена. Проверьте их и попробуйте ещё раз.',
  searchIncomplete: 'Введите трек-номер или номер заказа с e-mail или телефоном.',
  tooManyAttempts: 'Слишком много попыток. Подождите минуту и попробуйте снова.',
  linkNotFoundTitle: 'Ссылка не найдена',
  linkNotFound: 'Эта ссылка для отслеживания недействительна или больше не доступна.',
  statuses: {
    unknown: { title: 'Ожидаем данные', line: 'Ждём первых сведений от перевозчика.' },
    pre_transit: { title: 'Этикетка создана', line: 'Посылка готова и ждёт передачи перевозчику.' },
    no_info: { title: 'Ожидаем данные', line: 'Перевозчик ещё не зарегистрировал посылку.' },
    in_transit: { title: 'В пути', line: 'Ваша посылка в пути.' },
    delivery_in_progress: { title: 'Передана курьеру', line: 'Посылка должна прибыть сегодня.' },
    delivered: { title: 'Доставлена', line: 'Ваша посылка доставлена.' },
    unsuccessful_delivery: {
      title: 'Неудачная попытка доставки',
      line: 'Перевозчик не смог доставить посылку; обычно следует новая попытка.',
    },
    error: { title: 'Проблема с доставкой', line: 'Перевозчик сообщил о проблеме с посылкой.' },
    expired: { title: 'Нет свежих данных', line: 'Перевозчик давно ничего не сообщал.' },
    available_for_pickup: { title: 'Готова к выдаче', line: 'Посылка ждёт вас в пункте выдачи.' },
    cancelled: { title: 'Отменена', line: 'Доставка отменена.' },
    return_to_sender: {
      title: 'Возврат отправителю',
      line: 'Посылку не удалось доставить, она возвращается отправителю.',
    },
    transit_limit_exceeded: { title: 'Задерживается', line: 'Посылка идёт дольше обычного.' },
  },
};

export const MESSAGES: Record<PageLanguage, Messages> = { en, de, fr, es, it, pt, ru };

/** `{name}` placeholders filled from `values` (unknown ones left empty). */
export function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (_m, name: string) => String(values[name] ?? ''));
}
