"""The ``net`` play policy's weights, one row per rules label (``net.ROW_LABELS``), one column per
weight (``net.N_WEIGHTS``: each feature of ``net.FEATURES`` in each setting of ``net.setting``).
Written by ``belote learn`` (``analyzer.runs.learn``); numba reads them
as constants of the compiled policy. ``PROVENANCE``: how each row was trained and validated.

A row of zeros but the first (the heuristic's card) is the heuristic itself: the rows not trained yet.
"""

import numpy as np

from analyzer.players.net import N_WEIGHTS, ROW_LABELS

KERNEL_DATA = True  # numba freezes WEIGHTS into the compiled policy: this module is part of the kernel cache's digest

WEIGHTS = np.array([
    [  # classic
        11.386844681469947,  # defence, early: heuristic's card
        -50.02734587629648,  # defence, early: trump
        -53.010007461093714,  # defence, early: pts
        24.019601586822578,  # defence, early: rank in its suit
        -12.225251376546602,  # defence, early: master
        0.0,  # defence, early: lead
        20.069238400521744,  # defence, early: lead x trump
        86.81478493606198,  # defence, early: lead x master
        -92.44020971841087,  # defence, early: lead x pts
        49.334648911475355,  # defence, early: wins the trick so far
        5.798240377782095,  # defence, early: wins x last to play
        178.53171104978134,  # defence, early: wins x trick pts
        26.185488634422157,  # defence, early: partner winning x pts
        -70.09658411900247,  # defence, early: partner winning x trump
        -174.31810166618956,  # defence, early: loses x pts
        -70.09658411900246,  # defence, early: ruff
        0.0,  # defence, early: taker side x lead x trump
        -0.45600912649349445,  # defence, early: unseen trumps x lead x trump
        -20.669176812636756,  # defence, early: length of its suit
        -2.7599819042247615,  # defence, early: lowest of its suit
        13.143073621604985,  # defence, early: highest of its suit
        2.5870095737684435,  # defence, early: tricks left x pts
        0.0,  # defence, early: taker side x heuristic's card
        -39.05412110766268,  # defence, early: overtrump
        9.582644036484195,  # defence, late: heuristic's card
        -48.46995178508066,  # defence, late: trump
        -46.06305964258811,  # defence, late: pts
        1.4367713682665286,  # defence, late: rank in its suit
        -23.504331659607416,  # defence, late: master
        0.0,  # defence, late: lead
        26.824437510598468,  # defence, late: lead x trump
        71.66481731922929,  # defence, late: lead x master
        0.8902130297588771,  # defence, late: lead x pts
        88.2460041635277,  # defence, late: wins the trick so far
        -9.533921107276287,  # defence, late: wins x last to play
        145.7689654279009,  # defence, late: wins x trick pts
        31.02348850684451,  # defence, late: partner winning x pts
        -75.29438929718758,  # defence, late: partner winning x trump
        -8.6874147772119,  # defence, late: loses x pts
        -75.29438929718755,  # defence, late: ruff
        0.0,  # defence, late: taker side x lead x trump
        -7.790283697939329,  # defence, late: unseen trumps x lead x trump
        -5.565581797654323,  # defence, late: length of its suit
        -11.047841038468263,  # defence, late: lowest of its suit
        3.5323823620106762,  # defence, late: highest of its suit
        -67.49478744645388,  # defence, late: tricks left x pts
        0.0,  # defence, late: taker side x heuristic's card
        -131.0354364552773,  # defence, late: overtrump
        9.408007744895267,  # taker, early: heuristic's card
        -48.409362491073054,  # taker, early: trump
        -46.77067584130165,  # taker, early: pts
        -31.03678514191109,  # taker, early: rank in its suit
        -24.481395753748533,  # taker, early: master
        0.0,  # taker, early: lead
        -9.922617762964887,  # taker, early: lead x trump
        103.19803622443656,  # taker, early: lead x master
        -41.908051111520805,  # taker, early: lead x pts
        73.95516083695419,  # taker, early: wins the trick so far
        -3.519046929712729,  # taker, early: wins x last to play
        -21.381792365009478,  # taker, early: wins x trick pts
        -13.793521891085158,  # taker, early: partner winning x pts
        -38.48674463409173,  # taker, early: partner winning x trump
        -157.08412276128104,  # taker, early: loses x pts
        -38.486744634091714,  # taker, early: ruff
        -9.922617763240648,  # taker, early: taker side x lead x trump
        138.2035190212088,  # taker, early: unseen trumps x lead x trump
        -39.05133774015252,  # taker, early: length of its suit
        -13.886357454447847,  # taker, early: lowest of its suit
        6.837581464038706,  # taker, early: highest of its suit
        22.932959818059988,  # taker, early: tricks left x pts
        9.408007745422337,  # taker, early: taker side x heuristic's card
        -10.812835324887418,  # taker, early: overtrump
        6.541834908819621,  # taker, late: heuristic's card
        -50.68782081898948,  # taker, late: trump
        44.8332415186097,  # taker, late: pts
        -21.84419957930595,  # taker, late: rank in its suit
        -31.34257155563757,  # taker, late: master
        0.0,  # taker, late: lead
        -17.105229793651745,  # taker, late: lead x trump
        92.96704349126053,  # taker, late: lead x master
        -43.61256257690313,  # taker, late: lead x pts
        103.69842591197302,  # taker, late: wins the trick so far
        -62.90406927367222,  # taker, late: wins x last to play
        -71.50242204803193,  # taker, late: wins x trick pts
        4.500218198853665,  # taker, late: partner winning x pts
        -33.58259097312624,  # taker, late: partner winning x trump
        -113.66301667763648,  # taker, late: loses x pts
        -33.58259097312624,  # taker, late: ruff
        -17.105229794374633,  # taker, late: taker side x lead x trump
        152.65761778319654,  # taker, late: unseen trumps x lead x trump
        66.58832201530846,  # taker, late: length of its suit
        -15.088123976466488,  # taker, late: lowest of its suit
        1.3737115599745533,  # taker, late: highest of its suit
        -129.7907678049559,  # taker, late: tricks left x pts
        6.541834908581367,  # taker, late: taker side x heuristic's card
        -20.399274863639796,  # taker, late: overtrump
    ],
    [  # piekjas2
        -5.466094798738605,  # defence, early: heuristic's card
        -10.128138292498075,  # defence, early: trump
        -51.83949656201511,  # defence, early: pts
        -18.727940705760513,  # defence, early: rank in its suit
        -14.648355229465249,  # defence, early: master
        0.0,  # defence, early: lead
        -10.12813829242363,  # defence, early: lead x trump
        75.72640184710994,  # defence, early: lead x master
        -13.278359564406118,  # defence, early: lead x pts
        18.119730780537335,  # defence, early: wins the trick so far
        18.119730780534024,  # defence, early: wins x last to play
        1143.5782290377927,  # defence, early: wins x trick pts
        0.0,  # defence, early: partner winning x pts
        0.0,  # defence, early: partner winning x trump
        -149.92102537133067,  # defence, early: loses x pts
        0.0,  # defence, early: ruff
        0.0,  # defence, early: taker side x lead x trump
        7.815751076131736,  # defence, early: unseen trumps x lead x trump
        101.52670725963391,  # defence, early: length of its suit
        -7.621303572647688,  # defence, early: lowest of its suit
        13.921320096461994,  # defence, early: highest of its suit
        11.57789550842175,  # defence, early: tricks left x pts
        0.0,  # defence, early: taker side x heuristic's card
        0.0,  # defence, early: overtrump
        -6.900128922700022,  # defence, late: heuristic's card
        -36.68125531994737,  # defence, late: trump
        -26.90376465208584,  # defence, late: pts
        -42.478839279292906,  # defence, late: rank in its suit
        -23.753806894444473,  # defence, late: master
        0.0,  # defence, late: lead
        -36.681255319864135,  # defence, late: lead x trump
        66.78818128031726,  # defence, late: lead x master
        -38.6191100480732,  # defence, late: lead x pts
        35.238842219738295,  # defence, late: wins the trick so far
        35.23884221974052,  # defence, late: wins x last to play
        1359.4803168896854,  # defence, late: wins x trick pts
        0.0,  # defence, late: partner winning x pts
        0.0,  # defence, late: partner winning x trump
        -83.50477173279204,  # defence, late: loses x pts
        0.0,  # defence, late: ruff
        0.0,  # defence, late: taker side x lead x trump
        -2.5154439708398018,  # defence, late: unseen trumps x lead x trump
        129.3116518625819,  # defence, late: length of its suit
        -5.280589972827042,  # defence, late: lowest of its suit
        4.607475809250933,  # defence, late: highest of its suit
        110.59908668887259,  # defence, late: tricks left x pts
        0.0,  # defence, late: taker side x heuristic's card
        0.0,  # defence, late: overtrump
        3.4428633846942023,  # taker, early: heuristic's card
        -15.601872605750325,  # taker, early: trump
        9.063343073691009,  # taker, early: pts
        -63.721976767201404,  # taker, early: rank in its suit
        -33.46347229239482,  # taker, early: master
        0.0,  # taker, early: lead
        -15.601872604471756,  # taker, early: lead x trump
        65.2159190781756,  # taker, early: lead x master
        -6.145635115266217,  # taker, early: lead x pts
        14.658613203536998,  # taker, early: wins the trick so far
        14.658613203534959,  # taker, early: wins x last to play
        897.5997731659294,  # taker, early: wins x trick pts
        0.0,  # taker, early: partner winning x pts
        0.0,  # taker, early: partner winning x trump
        -186.99606864982565,  # taker, early: loses x pts
        0.0,  # taker, early: ruff
        -15.601872605645822,  # taker, early: taker side x lead x trump
        -11.452335431771221,  # taker, early: unseen trumps x lead x trump
        41.06970709210458,  # taker, early: length of its suit
        -14.819263287967944,  # taker, early: lowest of its suit
        8.604902737373518,  # taker, early: highest of its suit
        15.921789129098764,  # taker, early: tricks left x pts
        3.44286338495723,  # taker, early: taker side x heuristic's card
        0.0,  # taker, early: overtrump
        -3.810435546410974,  # taker, late: heuristic's card
        -16.347019931268143,  # taker, late: trump
        -95.42913434193179,  # taker, late: pts
        -55.802928057910634,  # taker, late: rank in its suit
        -83.94927818474058,  # taker, late: master
        0.0,  # taker, late: lead
        -16.347019931184985,  # taker, late: lead x trump
        99.48394799267554,  # taker, late: lead x master
        96.25574162621237,  # taker, late: lead x pts
        55.826514945692864,  # taker, late: wins the trick so far
        55.826514945693376,  # taker, late: wins x last to play
        907.8377537706622,  # taker, late: wins x trick pts
        0.0,  # taker, late: partner winning x pts
        0.0,  # taker, late: partner winning x trump
        49.90107476698158,  # taker, late: loses x pts
        0.0,  # taker, late: ruff
        -16.347019931154236,  # taker, late: taker side x lead x trump
        -67.24018457792951,  # taker, late: unseen trumps x lead x trump
        154.09804315315114,  # taker, late: length of its suit
        -11.701778559411654,  # taker, late: lowest of its suit
        1.1486488120130065,  # taker, late: highest of its suit
        104.74935568282119,  # taker, late: tricks left x pts
        -3.8104355471439684,  # taker, late: taker side x heuristic's card
        0.0,  # taker, late: overtrump
    ],
    [  # piekjas3
        0.7638575792587294,  # defence, early: heuristic's card
        -26.42906480835983,  # defence, early: trump
        -29.48732461069773,  # defence, early: pts
        5.286396215146845,  # defence, early: rank in its suit
        -22.722465397575636,  # defence, early: master
        0.0,  # defence, early: lead
        -26.429064807594752,  # defence, early: lead x trump
        87.98805278009144,  # defence, early: lead x master
        -103.54315333767529,  # defence, early: lead x pts
        20.99851190058891,  # defence, early: wins the trick so far
        29.94925041433262,  # defence, early: wins x last to play
        670.5280390385099,  # defence, early: wins x trick pts
        0.0,  # defence, early: partner winning x pts
        0.0,  # defence, early: partner winning x trump
        -204.03361021179307,  # defence, early: loses x pts
        0.0,  # defence, early: ruff
        0.0,  # defence, early: taker side x lead x trump
        77.4326808342712,  # defence, early: unseen trumps x lead x trump
        8.39255271578144,  # defence, early: length of its suit
        -7.780830092232585,  # defence, early: lowest of its suit
        11.605665193010108,  # defence, early: highest of its suit
        5.2805238561630965,  # defence, early: tricks left x pts
        0.0,  # defence, early: taker side x heuristic's card
        0.0,  # defence, early: overtrump
        -0.7069987075012465,  # defence, late: heuristic's card
        -37.6934587583242,  # defence, late: trump
        -5.681938941495275,  # defence, late: pts
        -34.19950300228761,  # defence, late: rank in its suit
        -22.336644993744244,  # defence, late: master
        0.0,  # defence, late: lead
        -37.69345875821166,  # defence, late: lead x trump
        73.36629591755991,  # defence, late: lead x master
        -8.77410794093744,  # defence, late: lead x pts
        38.32393481485704,  # defence, late: wins the trick so far
        54.123957209739075,  # defence, late: wins x last to play
        1067.8491379237505,  # defence, late: wins x trick pts
        0.0,  # defence, late: partner winning x pts
        0.0,  # defence, late: partner winning x trump
        -69.35997019015224,  # defence, late: loses x pts
        0.0,  # defence, late: ruff
        0.0,  # defence, late: taker side x lead x trump
        27.2727189988748,  # defence, late: unseen trumps x lead x trump
        21.73884485629887,  # defence, late: length of its suit
        -13.097822931228704,  # defence, late: lowest of its suit
        5.745720477911826,  # defence, late: highest of its suit
        -96.84319902817985,  # defence, late: tricks left x pts
        0.0,  # defence, late: taker side x heuristic's card
        0.0,  # defence, late: overtrump
        11.549143355324933,  # taker, early: heuristic's card
        -33.529481053458746,  # taker, early: trump
        27.069997057367907,  # taker, early: pts
        -64.1347197428732,  # taker, early: rank in its suit
        -60.44019332111395,  # taker, early: master
        0.0,  # taker, early: lead
        -33.52948105690575,  # taker, early: lead x trump
        121.2380511957302,  # taker, early: lead x master
        -95.32452042375266,  # taker, early: lead x pts
        -11.356936760810772,  # taker, early: wins the trick so far
        16.10745084474574,  # taker, early: wins x last to play
        612.0441339931291,  # taker, early: wins x trick pts
        0.0,  # taker, early: partner winning x pts
        0.0,  # taker, early: partner winning x trump
        -81.89685640826133,  # taker, early: loses x pts
        0.0,  # taker, early: ruff
        -33.529481058712676,  # taker, early: taker side x lead x trump
        82.15939899615348,  # taker, early: unseen trumps x lead x trump
        36.55082195243671,  # taker, early: length of its suit
        -22.12895225862568,  # taker, early: lowest of its suit
        0.9077353146663032,  # taker, early: highest of its suit
        27.050006700962058,  # taker, early: tricks left x pts
        11.54914335302441,  # taker, early: taker side x heuristic's card
        0.0,  # taker, early: overtrump
        2.1068975569153165,  # taker, late: heuristic's card
        -38.35197605286435,  # taker, late: trump
        -28.099754236887563,  # taker, late: pts
        -38.32684121969051,  # taker, late: rank in its suit
        -61.86547376963401,  # taker, late: master
        0.0,  # taker, late: lead
        -38.35197605257498,  # taker, late: lead x trump
        102.43171674052297,  # taker, late: lead x master
        30.87763513701379,  # taker, late: lead x pts
        28.14101393311669,  # taker, late: wins the trick so far
        37.18740119454039,  # taker, late: wins x last to play
        1159.3140285830893,  # taker, late: wins x trick pts
        0.0,  # taker, late: partner winning x pts
        0.0,  # taker, late: partner winning x trump
        -24.676023331023515,  # taker, late: loses x pts
        0.0,  # taker, late: ruff
        -38.351976052736426,  # taker, late: taker side x lead x trump
        65.97208087249693,  # taker, late: unseen trumps x lead x trump
        172.06941746273014,  # taker, late: length of its suit
        -21.467048748562053,  # taker, late: lowest of its suit
        0.8589488817104824,  # taker, late: highest of its suit
        -56.04993252492519,  # taker, late: tricks left x pts
        2.106897556444205,  # taker, late: taker side x heuristic's card
        0.0,  # taker, late: overtrump
    ],
    [  # piekjas4
        6.505260092014265,  # defence, early: heuristic's card
        -44.603608152885,  # defence, early: trump
        -23.257344397322775,  # defence, early: pts
        32.89530827216326,  # defence, early: rank in its suit
        -19.40780725371423,  # defence, early: master
        0.0,  # defence, early: lead
        -44.603608151606615,  # defence, early: lead x trump
        79.42957532581072,  # defence, early: lead x master
        -109.03805530689506,  # defence, early: lead x pts
        13.423728810626672,  # defence, early: wins the trick so far
        57.454368865926554,  # defence, early: wins x last to play
        630.867904983186,  # defence, early: wins x trick pts
        0.0,  # defence, early: partner winning x pts
        0.0,  # defence, early: partner winning x trump
        -189.68704462592746,  # defence, early: loses x pts
        0.0,  # defence, early: ruff
        0.0,  # defence, early: taker side x lead x trump
        87.02355699361453,  # defence, early: unseen trumps x lead x trump
        -4.805861273007306,  # defence, early: length of its suit
        -4.594858268354726,  # defence, early: lowest of its suit
        14.319778878492322,  # defence, early: highest of its suit
        -32.559824651248945,  # defence, early: tricks left x pts
        0.0,  # defence, early: taker side x heuristic's card
        0.0,  # defence, early: overtrump
        3.7725819759237704,  # defence, late: heuristic's card
        -69.1097069997391,  # defence, late: trump
        -12.864494173465234,  # defence, late: pts
        -3.8761478869243087,  # defence, late: rank in its suit
        -29.18469790747536,  # defence, late: master
        0.0,  # defence, late: lead
        -69.10970699957211,  # defence, late: lead x trump
        65.62538127251334,  # defence, late: lead x master
        -30.39018105432676,  # defence, late: lead x pts
        36.06821588462536,  # defence, late: wins the trick so far
        46.76859914393146,  # defence, late: wins x last to play
        903.0617011876153,  # defence, late: wins x trick pts
        0.0,  # defence, late: partner winning x pts
        0.0,  # defence, late: partner winning x trump
        -57.619881189372606,  # defence, late: loses x pts
        0.0,  # defence, late: ruff
        0.0,  # defence, late: taker side x lead x trump
        155.16665391545615,  # defence, late: unseen trumps x lead x trump
        -7.620351044829254,  # defence, late: length of its suit
        -11.704420601125339,  # defence, late: lowest of its suit
        4.355118411425288,  # defence, late: highest of its suit
        -91.50148977555067,  # defence, late: tricks left x pts
        0.0,  # defence, late: taker side x heuristic's card
        0.0,  # defence, late: overtrump
        19.815227483533995,  # taker, early: heuristic's card
        -32.55887027864846,  # taker, early: trump
        -45.006486463755024,  # taker, early: pts
        -40.58719815882392,  # taker, early: rank in its suit
        -82.26788615709148,  # taker, early: master
        0.0,  # taker, early: lead
        -32.55887027898672,  # taker, early: lead x trump
        165.94819810847298,  # taker, early: lead x master
        -117.20741237425875,  # taker, early: lead x pts
        -7.808235480246753,  # taker, early: wins the trick so far
        42.059347261859415,  # taker, early: wins x last to play
        559.7372056332697,  # taker, early: wins x trick pts
        0.0,  # taker, early: partner winning x pts
        0.0,  # taker, early: partner winning x trump
        -18.779115769101757,  # taker, early: loses x pts
        0.0,  # taker, early: ruff
        -32.558870279410286,  # taker, early: taker side x lead x trump
        79.64872498941325,  # taker, early: unseen trumps x lead x trump
        49.13707713472282,  # taker, early: length of its suit
        -22.038837841209517,  # taker, early: lowest of its suit
        5.682691271967741,  # taker, early: highest of its suit
        64.90105283371466,  # taker, early: tricks left x pts
        19.815227485175125,  # taker, early: taker side x heuristic's card
        0.0,  # taker, early: overtrump
        16.14734969105344,  # taker, late: heuristic's card
        -43.28562476054501,  # taker, late: trump
        24.065532858220116,  # taker, late: pts
        -8.01563592160522,  # taker, late: rank in its suit
        -107.90472419975639,  # taker, late: master
        0.0,  # taker, late: lead
        -43.28562476030274,  # taker, late: lead x trump
        159.61399027931543,  # taker, late: lead x master
        -73.21611434755359,  # taker, late: lead x pts
        -22.66701375787749,  # taker, late: wins the trick so far
        54.64805095655941,  # taker, late: wins x last to play
        570.9541474208662,  # taker, late: wins x trick pts
        0.0,  # taker, late: partner winning x pts
        0.0,  # taker, late: partner winning x trump
        -16.235936148884765,  # taker, late: loses x pts
        0.0,  # taker, late: ruff
        -43.28562476084649,  # taker, late: taker side x lead x trump
        109.21293231370286,  # taker, late: unseen trumps x lead x trump
        158.699922363271,  # taker, late: length of its suit
        -36.450302928239076,  # taker, late: lowest of its suit
        -2.4124864689099392,  # taker, late: highest of its suit
        -134.1441365814745,  # taker, late: tricks left x pts
        16.147349691887197,  # taker, late: taker side x heuristic's card
        0.0,  # taker, late: overtrump
    ],
    [  # dekjas
        -9.372861662603059,  # defence, early: heuristic's card
        -26.537806322609878,  # defence, early: trump
        55.446310947445006,  # defence, early: pts
        -34.506279982567364,  # defence, early: rank in its suit
        -36.71738879020927,  # defence, early: master
        0.0,  # defence, early: lead
        -26.537806322778867,  # defence, early: lead x trump
        91.66110508829507,  # defence, early: lead x master
        -57.51238911235187,  # defence, early: lead x pts
        15.952467641696998,  # defence, early: wins the trick so far
        15.952467641695486,  # defence, early: wins x last to play
        791.201873002341,  # defence, early: wins x trick pts
        0.0,  # defence, early: partner winning x pts
        0.0,  # defence, early: partner winning x trump
        -224.4683253633756,  # defence, early: loses x pts
        0.0,  # defence, early: ruff
        0.0,  # defence, early: taker side x lead x trump
        44.94777696790402,  # defence, early: unseen trumps x lead x trump
        44.2069794890367,  # defence, early: length of its suit
        -4.390525622770191,  # defence, early: lowest of its suit
        8.057584125783839,  # defence, early: highest of its suit
        -19.11232581128776,  # defence, early: tricks left x pts
        0.0,  # defence, early: taker side x heuristic's card
        0.0,  # defence, early: overtrump
        -1.7490433679258037,  # defence, late: heuristic's card
        -29.935489797908556,  # defence, late: trump
        70.21648999085645,  # defence, late: pts
        -40.33288380084197,  # defence, late: rank in its suit
        -50.47412108614656,  # defence, late: master
        0.0,  # defence, late: lead
        -29.93548979820001,  # defence, late: lead x trump
        95.33376128647792,  # defence, late: lead x master
        -38.52167700450579,  # defence, late: lead x pts
        32.78643966526896,  # defence, late: wins the trick so far
        32.786439665265746,  # defence, late: wins x last to play
        809.311091186721,  # defence, late: wins x trick pts
        0.0,  # defence, late: partner winning x pts
        0.0,  # defence, late: partner winning x trump
        -163.7559338131399,  # defence, late: loses x pts
        0.0,  # defence, late: ruff
        0.0,  # defence, late: taker side x lead x trump
        23.668628703973912,  # defence, late: unseen trumps x lead x trump
        76.55644611386583,  # defence, late: length of its suit
        -7.057870869564606,  # defence, late: lowest of its suit
        2.410189879125945,  # defence, late: highest of its suit
        -33.138949408019734,  # defence, late: tricks left x pts
        0.0,  # defence, late: taker side x heuristic's card
        0.0,  # defence, late: overtrump
        1.4407547241702234,  # taker, early: heuristic's card
        -20.875822210836493,  # taker, early: trump
        42.37032169143397,  # taker, early: pts
        -54.31185729184809,  # taker, early: rank in its suit
        -52.130579327842064,  # taker, early: master
        0.0,  # taker, early: lead
        -20.87582221242483,  # taker, early: lead x trump
        82.74438819722069,  # taker, early: lead x master
        -37.46686779414688,  # taker, early: lead x pts
        12.325746198594928,  # taker, early: wins the trick so far
        12.325746198591306,  # taker, early: wins x last to play
        993.73142329138,  # taker, early: wins x trick pts
        0.0,  # taker, early: partner winning x pts
        0.0,  # taker, early: partner winning x trump
        -213.87261090111846,  # taker, early: loses x pts
        0.0,  # taker, early: ruff
        -20.875822210618626,  # taker, early: taker side x lead x trump
        4.384047697062384,  # taker, early: unseen trumps x lead x trump
        47.480917698861184,  # taker, early: length of its suit
        -9.032066752201324,  # taker, early: lowest of its suit
        5.793645587610114,  # taker, early: highest of its suit
        7.033777261337414,  # taker, early: tricks left x pts
        1.4407547252287523,  # taker, early: taker side x heuristic's card
        0.0,  # taker, early: overtrump
        0.522406732994355,  # taker, late: heuristic's card
        -28.866838873419663,  # taker, late: trump
        53.641449571487186,  # taker, late: pts
        -39.42941815299276,  # taker, late: rank in its suit
        -74.58442872788858,  # taker, late: master
        0.0,  # taker, late: lead
        -28.866838873168646,  # taker, late: lead x trump
        112.62468268726425,  # taker, late: lead x master
        16.027991474390085,  # taker, late: lead x pts
        32.485804207406126,  # taker, late: wins the trick so far
        32.48580420741444,  # taker, late: wins x last to play
        1186.3799449893615,  # taker, late: wins x trick pts
        0.0,  # taker, late: partner winning x pts
        0.0,  # taker, late: partner winning x trump
        -147.05330696574555,  # taker, late: loses x pts
        0.0,  # taker, late: ruff
        -28.86683887183948,  # taker, late: taker side x lead x trump
        14.079767490419453,  # taker, late: unseen trumps x lead x trump
        138.97835558778024,  # taker, late: length of its suit
        -12.545334518198425,  # taker, late: lowest of its suit
        1.7418507296219015,  # taker, late: highest of its suit
        -63.93280636301708,  # taker, late: tricks left x pts
        0.5224067332225624,  # taker, late: taker side x heuristic's card
        0.0,  # taker, late: overtrump
    ],
], np.float64)
assert WEIGHTS.shape == (len(ROW_LABELS), N_WEIGHTS)
PROVENANCE = {
    "classic": {
        "anchor": None,
        "commit": "9016352504fba113d824a127e973a09983b51d0e",
        "held_out": {
            "deals": 20000,
            "decisions": 324528,
            "difference": -1.9023936301336095,
            "difference_ci": [
                -2.3236224425009,
                -1.4811648177663188
            ],
            "heuristic_best": 0.7173710742986737,
            "heuristic_loss": 59.31229354631958,
            "net_best": 0.7135809544939111,
            "net_loss": 57.40989991618597
        },
        "ridge": 1.0,
        "seed": 1,
        "target": "rollout",
        "test_seed": 2,
        "train_deals": 200000,
        "train_decisions": 3268581
    },
    "dekjas": {
        "anchor": None,
        "commit": "05e634a862835f2f90c8da0471a9f3c23571c34e",
        "held_out": {
            "deals": 10000,
            "decisions": 169372,
            "difference": -10.166957938738399,
            "difference_ci": [
                -11.156626442396348,
                -9.17728943508045
            ],
            "heuristic_best": 0.4504463547693834,
            "heuristic_loss": 129.31646316982736,
            "net_best": 0.4803804643034268,
            "net_loss": 119.14950523108897
        },
        "ridge": 1.0,
        "seed": 1,
        "target": "rollout",
        "test_seed": 2,
        "train_deals": 100000,
        "train_decisions": 1703816
    },
    "piekjas2": {
        "anchor": None,
        "commit": "05e634a862835f2f90c8da0471a9f3c23571c34e",
        "held_out": {
            "deals": 10000,
            "decisions": 85097,
            "difference": -5.637214002843813,
            "difference_ci": [
                -6.262663251632523,
                -5.011764754055104
            ],
            "heuristic_best": 0.625333443012092,
            "heuristic_loss": 53.21520147596272,
            "net_best": 0.6535248011093223,
            "net_loss": 47.57798747311891
        },
        "ridge": 1.0,
        "seed": 1,
        "target": "rollout",
        "test_seed": 2,
        "train_deals": 100000,
        "train_decisions": 846502
    },
    "piekjas3": {
        "anchor": None,
        "commit": "05e634a862835f2f90c8da0471a9f3c23571c34e",
        "held_out": {
            "deals": 10000,
            "decisions": 179473,
            "difference": -4.9889231249268695,
            "difference_ci": [
                -5.597565664669096,
                -4.380280585184643
            ],
            "heuristic_best": 0.583887269951469,
            "heuristic_loss": 67.0960701609713,
            "net_best": 0.5926128164124966,
            "net_loss": 62.10714703604442
        },
        "ridge": 1.0,
        "seed": 1,
        "target": "rollout",
        "test_seed": 2,
        "train_deals": 100000,
        "train_decisions": 1794037
    },
    "piekjas4": {
        "anchor": None,
        "commit": "05e634a862835f2f90c8da0471a9f3c23571c34e",
        "held_out": {
            "deals": 10000,
            "decisions": 195785,
            "difference": -0.46132747656868506,
            "difference_ci": [
                -1.0257609904609073,
                0.10310603732353724
            ],
            "heuristic_best": 0.5950762315805603,
            "heuristic_loss": 59.27905099982123,
            "net_best": 0.5949740787087877,
            "net_loss": 58.817723523252546
        },
        "ridge": 1.0,
        "seed": 1,
        "target": "rollout",
        "test_seed": 2,
        "train_deals": 100000,
        "train_decisions": 1955999
    }
}
